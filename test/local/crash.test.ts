import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from './npm-start';

/**
 * An error that escapes a request (thrown in a timer, a rejection nobody handles) becomes that request's
 * 500 with its request id, logged under it; a handler that never answers gets 502 (a Lambda timeout, as API Gateway answers it) after the
 * integration timeout; an error outside any request is logged. The process never exits from them.
 * The server runs in a process of its own (test/local/fixtures/crash-server.ts) with guardProcess(), as
 * npm start runs it.
 */
let child: ChildProcess;
let output = '';
let base: string;

beforeAll(async () => {
  child = spawn(process.execPath, ['--import', 'tsx', 'test/local/fixtures/crash-server.ts'], {
    cwd: ROOT,
    env: { ...process.env, POWERTOOLS_METRICS_DISABLED: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.on('data', (d: Buffer) => (output += String(d)));
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      output += String(d);
      const m = /listening (\d+)/.exec(output);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`crash server exited (${code}):\n${output}`)));
  });
  base = `http://127.0.0.1:${port}`;
});

afterAll(() => {
  child?.kill('SIGKILL');
});

async function get(query: string) {
  const res = await fetch(`${base}/v1/openapi.json${query}`);
  const requestId = res.headers.get('x-request-id');
  return { status: res.status, requestId, body: (await res.json()) as { error?: { code: string; message: string; requestId: string } } };
}

test.each([
  ['timer', 'uncaught exception', 'thrown in a timer'],
  ['rejection', 'unhandled rejection', 'a rejection nobody handles'],
])('an error escaping the request (%s): its 500 with the request id, logged under it; the process goes on', async (crash, kind, message) => {
  const res = await get(`?crash=${crash}`);
  expect(res.status).toBe(500);
  expect(res.body).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred', requestId: res.requestId } });
  expect(output).toContain(`local server: ${kind} while serving request ${res.requestId}; answered 500`);
  expect(output).toContain(message);
  expect((await get('')).status).toBe(200);
  expect(child.exitCode).toBeNull();
});

test('a handler that never answers: 502 after the time limit (as API Gateway answers a Lambda that timed out, never 504); a handler that throws: 500', async () => {
  const started = Date.now();
  const hang = await get('?crash=hang');
  expect(hang.status).toBe(502);
  expect(hang.body).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred', requestId: hang.requestId } });
  expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  const thrown = await get('?crash=throw');
  expect(thrown.status).toBe(500);
  expect(thrown.body.error).toEqual({ code: 'INTERNAL_ERROR', message: 'An unexpected error occurred', requestId: thrown.requestId });
  expect((await get('')).status).toBe(200);
});

test('an error outside any request is logged, and the process keeps serving', async () => {
  expect(output).toContain('local server: uncaught exception outside any request (the server keeps running)');
  expect(output).toContain('thrown outside any request');
  expect((await get('')).status).toBe(200);
  expect(child.exitCode).toBeNull();
});
