import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gatewayAnswerResponse, MAX_GATEWAY_BODY_BYTES } from '../shared/api/gateway-edge';
import { createGateway, type GatewayOptions } from './gateway';

function readBody(req: IncomingMessage): Promise<string | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_GATEWAY_BODY_BYTES) {
        resolve('too-large');
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The HTTP front of the local gateway. */
export function createLocalServer(opts: GatewayOptions = {}): Server {
  const gateway = createGateway(opts);
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const body = await readBody(req);
    if (body === 'too-large') {
      const out = gatewayAnswerResponse('REQUEST_TOO_LARGE', randomUUID());
      res.writeHead(out.status, out.headers).end(out.body);
      return;
    }
    const query: Record<string, string[]> = {};
    for (const [k, v] of url.searchParams) (query[k] ??= []).push(v);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(',') : v;
    // API Gateway always adds X-Forwarded-Proto; the local server is plain HTTP.
    headers['x-forwarded-proto'] ??= 'http';
    const out = await gateway.handle({ method: req.method ?? 'GET', path: url.pathname, query, headers, body, sourceIp: req.socket.remoteAddress ?? '127.0.0.1' });
    res.writeHead(out.status, out.headers).end(out.body);
  };
  return createServer((req, res) => {
    serve(req, res).catch((err: unknown) => {
      // The gateway answers its own failures; this is the request stream itself failing (e.g. aborted).
      console.error('local server: request failed', err);
      if (res.headersSent) res.destroy();
      else {
        const out = gatewayAnswerResponse('DEFAULT_5XX', randomUUID());
        res.writeHead(out.status, out.headers).end(out.body);
      }
    });
  });
}
