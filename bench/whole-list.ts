import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { median } from './lib/stats';

/**
 * The largest whole list the bounds allow (docs/capacity.md, "Bounded whole lists"): clients with the
 * longest notes the API accepts are created until the list's byte bound refuses one (409), then the list
 * is fetched over HTTP from the local server (local/server.ts, which compresses as API Gateway does), plain
 * and with Accept-Encoding: gzip. Prints the records, the bytes on the wire and the time of each.
 */
export interface WholeListBench {
  records: number;
  boundBytes: number;
  plainBytes: number;
  gzipBytes: number;
  plainMs: number;
  gzipMs: number;
  runs: number;
}

function get(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; bytes: Buffer; ms: number; encoding?: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          bytes: Buffer.concat(chunks),
          ms: performance.now() - t0,
          ...(res.headers['content-encoding'] ? { encoding: String(res.headers['content-encoding']) } : {}),
        }),
      );
    });
    req.on('error', reject);
    // bounded: a list that has not come back within 60 s fails the section naming the request
    req.setTimeout(60_000, () => req.destroy(new Error(`gave up after 60 s waiting for GET ${path} from the local server`)));
    req.end();
  });
}

export async function measureWholeList(o: { runs: number; progress?: (s: string) => void }): Promise<WholeListBench> {
  const { createLocalServer } = await import('../local/server');
  const { createApiKey } = await import('../shared/data/apikey-store');
  const { clients } = await import('../shared/data/repositories');
  const { maxListBytes } = await import('../shared/data/record-writes');
  const { DomainError } = await import('../shared/domain/errors');
  const ws = 'bench-whole-list';
  const { key } = await createApiKey({ workspaceId: ws, name: 'bench', scopes: ['clients:read'], perMinute: 1_000_000, perHour: 10_000_000 });
  // random text: the worst case for compression (repeated letters would shrink to nothing)
  const text = (chars: number) => randomBytes(chars).toString('base64').slice(0, chars);
  let records = 0;
  for (;;) {
    // bounded: the byte bound refuses a create long before this many (222 at the default bound)
    if (records >= 20_000) throw new Error(`gave up after ${records} clients waiting for the list's byte bound (${maxListBytes()} bytes) to refuse one`);
    try {
      await clients.create(ws, { name: `Client ${String(records).padStart(5, '0')}`, email: `billing${records}@example.com`, address: text(1000), notes: text(10_000) });
      records++;
      if (records % 50 === 0) o.progress?.(`whole list: ${records} clients`);
    } catch (err) {
      if (err instanceof DomainError && err.reason === 'conflict') break; // the byte bound refused the next one
      throw err;
    }
  }
  const server = createLocalServer({ authCacheTtlSeconds: 3600 });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  try {
    const plain: number[] = [];
    const zipped: number[] = [];
    let plainBytes = 0;
    let gzipBytes = 0;
    for (let i = 0; i < o.runs; i++) {
      const a = await get(port, '/v1/clients', { 'X-API-Key': key });
      const b = await get(port, '/v1/clients', { 'X-API-Key': key, 'Accept-Encoding': 'gzip' });
      if (a.status !== 200 || b.status !== 200 || b.encoding !== 'gzip') throw new Error(`whole list: ${a.status} / ${b.status} ${b.encoding ?? 'not compressed'}`);
      if (gunzipSync(b.bytes).length !== a.bytes.length) throw new Error('whole list: the gzip answer is not the plain one');
      plain.push(a.ms);
      zipped.push(b.ms);
      plainBytes = a.bytes.length;
      gzipBytes = b.bytes.length;
    }
    return { records, boundBytes: maxListBytes(), plainBytes, gzipBytes, plainMs: median(plain), gzipMs: median(zipped), runs: o.runs };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

export function formatWholeList(r: WholeListBench): { header: string[]; rows: string[][]; note: string } {
  const mb = (b: number) => `${(b / 1_000_000).toFixed(2)} MB`;
  return {
    header: ['answer', 'bytes on the wire', 'median ms'],
    rows: [
      ['plain', mb(r.plainBytes), r.plainMs.toFixed(1)],
      ['gzip', mb(r.gzipBytes), r.gzipMs.toFixed(1)],
    ],
    note: `GET /v1/clients of the largest list the byte bound allows (${mb(r.boundBytes)} of record JSON): ${r.records} clients with the longest address and notes accepted (random text, the worst case for gzip) (the next create was refused 409), fetched ${r.runs} times each way from the local server on 127.0.0.1. gzip / plain = ${(r.gzipBytes / r.plainBytes).toFixed(3)}; Lambda's limit is 6 MB.`,
  };
}
