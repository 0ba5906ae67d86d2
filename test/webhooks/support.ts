import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { startWebhookDelivery, type DeliveryLoop } from '../../local/webhooks';
import { db, tableName } from '../../shared/data/db';
import { keys } from '../../shared/data/keys';
import { directory } from '../../shared/webhooks/store';

/**
 * A real HTTP receiver on 127.0.0.1 that verifies every delivery with the `standardwebhooks` library
 * (never the product's signing code), as an integrator's endpoint would. `behave` decides each answer:
 * a status, or 'hang' (never answers: the sender's timeout). `close()` then `listen()` again on the same
 * port gives refused connections in between.
 */
export interface Received {
  id: string;
  timestamp: string;
  event: { id: string; type: string; resource: string; resourceId: string; position?: number; data: Record<string, unknown> };
}
export type Behaviour = (req: { id: string; attempt: number }) => number | 'hang';

export class Receiver {
  /** Every verified request, in arrival order (retries included). */
  readonly requests: Received[] = [];
  /** Requests whose signature did not verify (must stay empty). */
  readonly unverified: string[] = [];
  secrets: string[] = [];
  behave: Behaviour = () => 204;
  private server: Server | undefined;
  private hanging = new Set<ServerResponse>();
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }
  /** Distinct events received (by webhook-id), in first-arrival order. */
  events(): Received[] {
    const seen = new Map<string, Received>();
    for (const r of this.requests) if (!seen.has(r.id)) seen.set(r.id, r);
    return [...seen.values()];
  }
  attemptsOf(id: string): number {
    return this.requests.filter((r) => r.id === id).length;
  }

  async listen(port = this.port): Promise<void> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }
  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
    const s = this.server;
    this.server = undefined;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      let event: Received['event'] | undefined;
      for (const secret of this.secrets) {
        try {
          event = new Webhook(secret).verify(body, headers) as Received['event'];
          break;
        } catch {
          // try the next secret
        }
      }
      if (!event) {
        this.unverified.push(headers['webhook-id'] ?? '?');
        res.writeHead(400).end();
        return;
      }
      const id = headers['webhook-id']!;
      this.requests.push({ id, timestamp: headers['webhook-timestamp']!, event });
      const answer = this.behave({ id, attempt: this.attemptsOf(id) });
      if (answer === 'hang') this.hanging.add(res);
      else res.writeHead(answer).end('ok');
    });
  }
}

/** Waits until `check` holds (polling; the test's timeout bounds it). */
export async function until(check: () => boolean | Promise<boolean>, everyMs = 50): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, everyMs));
}

/**
 * The receivers and the local delivery loop of a webhook test file (jest hooks registered where it is
 * called): `receiver()` listens on a free port, `start()` runs the delivery loop (polling every 20 ms; its
 * errors to `onError`, ignored by default), `closeAfter()` registers another server to close. After each
 * test the loop stops and every receiver and server closes.
 *
 * `forgetWorkspaces`: after each test, its workspaces leave the dispatcher's directory (the workspaces with
 * webhooks, which every round of the loop dispatches: reads their endpoints, keys and feeds). For files
 * whose tests each make their own workspaces: the next test's loop then dispatches only that test's, not
 * every earlier test's too, 50 times a second. (A workspace shared by several tests would stop being
 * dispatched until a webhook is created in it again.)
 */
export function useDeliveryRig(opts: { forgetWorkspaces?: boolean } = {}) {
  let loop: DeliveryLoop | undefined;
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await loop?.stop();
    loop = undefined;
    await Promise.all(closers.splice(0).map((close) => close()));
    if (opts.forgetWorkspaces) {
      await Promise.all((await directory()).map((ws) => db().send(new DeleteCommand({ TableName: tableName(), Key: keys.webhookDirectory(ws) }))));
    }
  });
  return {
    /** The running loop, if any (a test may stop it and start another). */
    get loop(): DeliveryLoop | undefined {
      return loop;
    },
    start(onError: (err: unknown) => void = () => undefined): DeliveryLoop {
      return (loop = startWebhookDelivery({ pollMs: 20, onError }));
    },
    async receiver(): Promise<Receiver> {
      const r = new Receiver();
      await r.listen();
      closers.push(() => r.close());
      return r;
    },
    closeAfter(close: () => Promise<void>): void {
      closers.push(close);
    },
  };
}
