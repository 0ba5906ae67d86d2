/**
 * Every wait of the benchmark is bounded and says what it waited for when it gives up (issue 27: a run
 * once waited 13 minutes for a local queue that held retries due hours later). Two helpers:
 * - `waitFor`: polls a condition until it holds or the bound passes, then throws naming the condition
 *   and, when given, what was still missing (`detail`);
 * - `withDeadline`: races a promise against a bound, then throws naming what it was (the promise's own
 *   work is not cancelled: the caller cleans up, and `npm run bench` exits when it has printed).
 */
export class BenchTimeout extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BenchTimeout';
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  o: { timeoutMs: number; intervalMs?: number; detail?: () => string | Promise<string> },
): Promise<void> {
  const t0 = performance.now();
  for (;;) {
    if (await check()) return;
    if (performance.now() - t0 >= o.timeoutMs) {
      const detail = o.detail ? await Promise.resolve(o.detail()).catch((err: unknown) => `(detail failed: ${(err as Error).message})`) : '';
      throw new BenchTimeout(`gave up after ${seconds(o.timeoutMs)} waiting for ${what}${detail ? `: ${detail}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, o.intervalMs ?? 5));
  }
}

export function withDeadline<T>(work: Promise<T>, timeoutMs: number, what: string, onTimeout?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      try {
        onTimeout?.();
      } finally {
        reject(new BenchTimeout(`gave up after ${seconds(timeoutMs)} waiting for ${what}`));
      }
    }, timeoutMs);
    timer.unref?.();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
