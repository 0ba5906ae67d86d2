/** Pure statistics helpers of the benchmark (unit-tested in test/bench/helpers.test.ts). */

/** Nearest-rank percentile (p in 0..100) of unsorted samples; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  if (p < 0 || p > 100) throw new RangeError(`percentile ${p} is not in 0..100`);
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

/** Median (mean of the two middle samples for an even count); NaN for no samples. */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) return NaN;
  const s = [...samples].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export const mean = (samples: readonly number[]): number => (samples.length ? samples.reduce((a, b) => a + b, 0) / samples.length : NaN);

/** a / b, NaN when b is 0 or either is not a number. */
export const ratio = (a: number, b: number): number => (Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? a / b : NaN);

export const fmt = (n: number, digits = 2): string => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
export const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * Completed requests per second: count / elapsed seconds, NaN when the elapsed time is not positive. A
 * count over the measured time, not a mean of whole-second buckets (autocannon's `requests.average`),
 * which comes out the same for two servers whose runs of a few seconds complete different counts.
 */
export const perSecond = (count: number, seconds: number): number => (Number.isFinite(count) && Number.isFinite(seconds) && count >= 0 && seconds > 0 ? count / seconds : NaN);

export interface RatioSpread {
  /** a[i] / b[i] per round, in round order (NaN where b[i] is 0). */
  ratios: number[];
  /** Median and range of the finite ratios; NaN when there are none. */
  median: number;
  min: number;
  max: number;
  /** How many rounds gave a finite ratio. */
  n: number;
}

/** Ratios of paired rounds (a[i] measured next to b[i]): each round's ratio, their median and min-max. */
export function pairedRatios(a: readonly number[], b: readonly number[]): RatioSpread {
  if (a.length !== b.length) throw new RangeError(`paired rounds differ in length: ${a.length} vs ${b.length}`);
  const ratios = a.map((x, i) => ratio(x, b[i]!));
  const ok = ratios.filter(Number.isFinite);
  return { ratios, median: median(ok), min: ok.length ? Math.min(...ok) : NaN, max: ok.length ? Math.max(...ok) : NaN, n: ok.length };
}
