import { itemSize, itemWriteUnits, numberSize, readUnits, valueSize, writeUnits } from '../../bench/lib/capacity';
import { mean, median, pairedRatios, percentile, perSecond, ratio } from '../../bench/lib/stats';
import { summarizeThroughput, type ThroughputRun } from '../../bench/throughput';
import { analyse, packageOf, type BundleInfo } from '../../bench/bundles';
import { compareSdkModes, type ColdSample } from '../../bench/cold-start';
import { callReasons, routeKind, targetOf, WRITE_TARGETS } from '../../bench/dynamo-work';
import type { Call } from '../../bench/lib/dynamo-counter';
import { BenchTimeout, waitFor, withDeadline } from '../../bench/lib/bounded';
import { markdownTable, table } from '../../bench/lib/report';

/** The benchmark's pure helpers (npm run bench itself is not part of npm test: no timed assertions). */
describe('bench statistics', () => {
  test('percentile is nearest-rank', () => {
    const xs = [5, 1, 4, 2, 3, 6, 7, 8, 9, 10];
    expect(percentile(xs, 50)).toBe(5);
    expect(percentile(xs, 90)).toBe(9);
    expect(percentile(xs, 99)).toBe(10);
    expect(percentile(xs, 100)).toBe(10);
    expect(percentile(xs, 0)).toBe(1);
    expect(percentile([42], 99)).toBe(42);
    expect(percentile([], 50)).toBeNaN();
    expect(() => percentile(xs, 101)).toThrow(RangeError);
    expect(xs[0]).toBe(5); // input not sorted in place
  });

  test('median, mean and ratio', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
    expect(mean([1, 2, 3, 6])).toBe(3);
    expect(ratio(3, 2)).toBe(1.5);
    expect(ratio(1, 0)).toBeNaN();
  });
});

describe('bench capacity from item sizes', () => {
  test('value sizes follow DynamoDB rules', () => {
    expect(valueSize('abc')).toBe(3);
    expect(valueSize('é')).toBe(2); // UTF-8 bytes
    expect(valueSize(true)).toBe(1);
    expect(valueSize(null)).toBe(1);
    expect(numberSize(0)).toBe(2);
    expect(numberSize(7)).toBe(2);
    expect(numberSize(12)).toBe(2);
    expect(numberSize(123)).toBe(3);
    expect(numberSize(1000)).toBe(2); // trailing zeros do not count
    expect(numberSize(-12.5)).toBe(3);
    expect(valueSize(['ab', 'c'])).toBe(3 + 1 + 2 + 1 + 1);
    expect(valueSize({ a: 'xy' })).toBe(3 + 1 + 1 + 2);
    expect(itemSize({ PK: 'WS#w', SK: 'CLIENT#1', n: 5 })).toBe(2 + 4 + 2 + 8 + 1 + 2);
    expect(itemSize(undefined)).toBe(0);
  });

  test('read units: 4 KB blocks, halved when eventually consistent, minimum one block', () => {
    expect(readUnits(0, true)).toBe(1);
    expect(readUnits(100, true)).toBe(1);
    expect(readUnits(100, false)).toBe(0.5);
    expect(readUnits(4096, false)).toBe(0.5);
    expect(readUnits(4097, false)).toBe(1);
    expect(readUnits(50 * 400, false)).toBe(2.5); // a page of 50 items of 400 bytes
    expect(readUnits(9000, true)).toBe(3);
  });

  test('write units: 1 KB blocks, doubled in a transaction', () => {
    expect(writeUnits(10)).toBe(1);
    expect(writeUnits(1024)).toBe(1);
    expect(writeUnits(1025)).toBe(2);
    expect(writeUnits(10, true)).toBe(2);
    expect(writeUnits(2048, true)).toBe(4);
  });

  test('item writes count the table and every index the item is in', () => {
    const ix = ['GSI1', 'GSI2'];
    const a = { PK: 'p', SK: 's', GSI1PK: 'u', GSI1SK: 'x', v: 1 };
    // New item in one index.
    expect(itemWriteUnits(undefined, a, ix)).toEqual({ table: 1, indexes: 1 });
    // Same index key: one index write. Moved in GSI1 and appearing in GSI2: delete + put + put.
    expect(itemWriteUnits(a, { ...a, v: 2 }, ix)).toEqual({ table: 1, indexes: 1 });
    expect(itemWriteUnits(a, { ...a, GSI1SK: 'y', GSI2PK: 'q', GSI2SK: 'y' }, ix)).toEqual({ table: 1, indexes: 3 });
    // Delete; transactional doubles the table write; a failed condition writes no index.
    expect(itemWriteUnits(a, undefined, ix, { transactional: true })).toEqual({ table: 2, indexes: 1 });
    expect(itemWriteUnits(a, a, ix, { failed: true })).toEqual({ table: 1, indexes: 0 });
    // Size: the larger of before and after.
    const big = { ...a, notes: 'x'.repeat(3000) };
    expect(itemWriteUnits(a, big, ix).table).toBe(3);
  });
});

describe('bench bundle analysis and tables', () => {
  test('package of a metafile input', () => {
    expect(packageOf('node_modules/zod/v4/core/core.js')).toBe('zod');
    expect(packageOf('node_modules/@aws-lambda-powertools/logger/lib/cjs/Logger.js')).toBe('@aws-lambda-powertools/logger');
    expect(packageOf('node_modules/a/node_modules/@smithy/core/dist/index.js')).toBe('@smithy/core');
    expect(packageOf('shared/routes.ts')).toBe('(project)');
  });

  test('analyse sums bytes per package from a metafile', () => {
    const meta = {
      inputs: {},
      outputs: {
        'out.js': {
          bytes: 300,
          entryPoint: 'functions/x/index.ts',
          imports: [],
          exports: [],
          inputs: { 'functions/x/index.ts': { bytesInOutput: 100 }, 'node_modules/zod/a.js': { bytesInOutput: 150 }, 'node_modules/zod/b.js': { bytesInOutput: 50 } },
        },
      },
    };
    expect(analyse(meta)).toEqual({
      bytes: 300,
      modules: 3,
      packages: [
        ['zod', 200],
        ['(project)', 100],
      ],
    });
  });

  test('route kinds and tables', () => {
    expect(routeKind('listClients')).toBe('list');
    expect(routeKind('updateTimeEntry')).toBe('update');
    expect(routeKind('getOpenApi')).toBe('other');
    expect(
      table(
        ['a', 'n'],
        [
          ['x', '1'],
          ['yy', '22'],
        ],
      ),
    ).toBe('a    n\n--  --\nx    1\nyy  22');
    expect(markdownTable(['a', 'n'], [['x|y', '1']])).toBe('| a | n |\n| --- | ---: |\n| x\\|y | 1 |');
  });
});

describe('SDK mode comparison (bench/cold-start.ts)', () => {
  const bundle = (fn: string, sdk: 'external' | 'bundled') => ({ fn, sdk, file: `${sdk}/${fn}.js`, bytes: 0, modules: 0, packages: [] }) as unknown as BundleInfo;
  /** 10 rounds per bundle; bundled totals = external x factor, each sample with +-noise (deterministic). */
  function samplesFor(factor: number, noise: number) {
    const bundles = ['clients', 'tags', 'openapi'].flatMap((fn) => [bundle(fn, 'external'), bundle(fn, 'bundled')]);
    const samples = new Map<BundleInfo, ColdSample[]>();
    bundles.forEach((b, j) => {
      const totals = Array.from({ length: 10 }, (_, i) => 300 * (b.sdk === 'bundled' ? factor : 1) * (1 + noise * Math.sin(i * 7 + j * 3)));
      samples.set(
        b,
        totals.map((total) => ({ boot: 0, load: total / 2, first: total / 2, total, cpu: total / 2, status: 200 })),
      );
    });
    return { bundles, samples };
  }

  test('a clear difference is significant, in the right direction', () => {
    const faster = samplesFor(0.8, 0.05);
    const c = compareSdkModes(faster.bundles, faster.samples, 10);
    expect(c.ratio).toBeCloseTo(0.8, 1);
    expect(c.significant).toBe(true);
    expect(c.high).toBeLessThan(1);
    const slower = samplesFor(1.25, 0.05);
    expect(compareSdkModes(slower.bundles, slower.samples, 10)).toMatchObject({ significant: true });
    expect(compareSdkModes(slower.bundles, slower.samples, 10).low).toBeGreaterThan(1);
  });

  test('a difference smaller than the noise is not (the interval includes 1)', () => {
    const same = samplesFor(0.98, 0.2);
    const c = compareSdkModes(same.bundles, same.samples, 10);
    expect(c.low).toBeLessThan(1);
    expect(c.high).toBeGreaterThan(1);
    expect(c.significant).toBe(false);
  });
});

describe('throughput figures (bench/throughput.ts)', () => {
  test('req/s is completed requests over the measured elapsed time', () => {
    expect(perSecond(1000, 4)).toBe(250);
    expect(perSecond(0, 4)).toBe(0);
    expect(perSecond(10, 0)).toBeNaN();
    expect(perSecond(10, -1)).toBeNaN();
    expect(perSecond(NaN, 1)).toBeNaN();
  });

  test('different completed counts over the same time give different figures (no whole-second quantization)', () => {
    // The old defect: autocannon's requests.average over a 2-3 s run gave 250 vs 250 for these.
    const bare = perSecond(812, 3.21);
    const gateway = perSecond(689, 3.21);
    expect(gateway).not.toBe(bare);
    expect(ratio(gateway, bare)).toBeCloseTo(689 / 812, 10);
  });

  test('paired ratios: per round, median and min-max; NaN rounds left out', () => {
    const r = pairedRatios([80, 90, 70, 85], [100, 100, 100, 100]);
    expect(r.ratios).toEqual([0.8, 0.9, 0.7, 0.85]);
    expect(r.median).toBeCloseTo(0.825, 10);
    expect(r).toMatchObject({ min: 0.7, max: 0.9, n: 4 });
    const withZero = pairedRatios([80, 50], [100, 0]);
    expect(withZero.ratios[1]).toBeNaN();
    expect(withZero).toMatchObject({ median: 0.8, min: 0.8, max: 0.8, n: 1 });
    expect(pairedRatios([], [])).toMatchObject({ n: 0, median: NaN, min: NaN, max: NaN });
    expect(() => pairedRatios([1], [1, 2])).toThrow(RangeError);
  });

  test('summary per endpoint: pooled req/s, ratios by round, errors reported', () => {
    const run = (server: 'bare' | 'gateway', round: number, ok: number, seconds: number, extra: Partial<ThroughputRun> = {}): ThroughputRun => ({
      endpoint: 'get',
      server,
      round,
      ok,
      requests: ok + (extra.non2xx ?? 0),
      non2xx: 0,
      errors: 0,
      seconds,
      rps: ok / seconds,
      p50: round + 10,
      p99: round + 50,
      ...extra,
    });
    // Interleaved, gateway first in round 1.
    const runs = [run('bare', 0, 1000, 4), run('gateway', 0, 800, 4), run('gateway', 1, 720, 4), run('bare', 1, 900, 4), run('bare', 2, 1000, 5), run('gateway', 2, 900, 5)];
    const [s] = summarizeThroughput(runs);
    expect(s!.rounds).toBe(3);
    expect(s!.bare.rps).toBeCloseTo(2900 / 13, 10);
    expect(s!.gateway.rps).toBeCloseTo(2420 / 13, 10);
    expect(s!.ratio.ratios.map((x) => +x.toFixed(4))).toEqual([0.8, 0.8, 0.9]);
    expect(s!.ratio).toMatchObject({ median: 0.8, min: 0.8, n: 3 });
    expect(s!.ratio.max).toBeCloseTo(0.9, 10);
    expect(s!.bare.p50).toBe(11);
    expect(s!.clean).toBe(true);
    const [dirty] = summarizeThroughput([run('bare', 0, 1000, 4), run('gateway', 0, 800, 4, { non2xx: 3 })]);
    expect(dirty!.clean).toBe(false);
    expect(dirty!.gateway).toMatchObject({ ok: 800, requests: 803, non2xx: 3 });
  });
});

describe('bench bounded waits (bench/lib/bounded.ts)', () => {
  test('waitFor gives up after its bound, naming what it waited for and what was missing', async () => {
    await expect(waitFor('the queue to be empty', () => false, { timeoutMs: 30, detail: () => '3 messages still queued' })).rejects.toThrow(
      'gave up after 0.0 s waiting for the queue to be empty: 3 messages still queued',
    );
    let n = 0;
    await expect(waitFor('three polls', () => ++n >= 3, { timeoutMs: 5000, intervalMs: 1 })).resolves.toBeUndefined();
    expect(n).toBe(3);
  });

  test('withDeadline rejects naming the work, and passes a result through', async () => {
    let cleaned = false;
    await expect(withDeadline(new Promise(() => undefined), 20, 'the loop to stop', () => (cleaned = true))).rejects.toBeInstanceOf(BenchTimeout);
    expect(cleaned).toBe(true);
    await expect(withDeadline(new Promise(() => undefined), 20, 'the loop to stop')).rejects.toThrow('waiting for the loop to stop');
    await expect(withDeadline(Promise.resolve(7), 1000, 'x')).resolves.toBe(7);
  });
});

describe('bench write targets and the reason for each call (bench/dynamo-work.ts)', () => {
  const call = (command: string, extra: Partial<Call> = {}): Call => ({
    command,
    rate: false,
    ok: true,
    ms: 1,
    rcu: 0,
    wcu: 0,
    reported: 0,
    itemsRead: 0,
    feedPosition: false,
    feedWcu: 0,
    rollupItems: 0,
    rollupWcu: 0,
    idempotency: false,
    ...extra,
  });
  const rl = call('UpdateItem', { rate: true });
  const position = call('UpdateItem', { feedPosition: true });
  const tx = call('TransactWriteItems');

  test('an update or delete: at most GetItem + position + transaction, and the rate-limit write', () => {
    expect(targetOf('update', {}, [rl, call('GetItem'), position, tx])).toEqual({ target: WRITE_TARGETS.updateOrDelete, met: true });
    expect(targetOf('delete', {}, [rl, call('GetItem'), position, tx])!.met).toBe(true);
    expect(targetOf('update', {}, [rl, call('GetItem'), call('GetItem'), position, tx])!.met).toBe(false);
    expect(targetOf('delete', {}, [call('GetItem'), position, tx])!.met).toBe(false); // no rate-limit write
  });

  test('a create naming nothing: at most position + transaction; a create naming records has no target', () => {
    expect(targetOf('create', { plain: true }, [rl, position, tx])).toEqual({ target: WRITE_TARGETS.plainCreate, met: true });
    expect(targetOf('create', { plain: true }, [rl, call('GetItem'), position, tx])!.met).toBe(false);
    expect(targetOf('create', {}, [rl, call('GetItem'), position, tx])).toBeUndefined();
    expect(targetOf('list', {}, [rl, call('Query')])).toEqual({ target: '1 Query + RL write', met: true });
  });

  test('Idempotency-Key rows (issue 35): the targets of their kind, the read may be the BatchGetItem of the record and the key; a repeat 1 data call', () => {
    expect(targetOf('update', { keyed: 'first' }, [rl, call('BatchGetItem'), position, tx])).toEqual({ target: WRITE_TARGETS.updateOrDelete, met: true });
    expect(targetOf('update', {}, [rl, call('BatchGetItem'), position, tx])!.met).toBe(false);
    expect(targetOf('delete', { keyed: 'first' }, [rl, call('BatchGetItem'), call('GetItem'), position, tx])!.met).toBe(false);
    expect(targetOf('create', { plain: true, keyed: 'first' }, [rl, position, tx])!.met).toBe(true);
    expect(targetOf('update', { keyed: 'replay' }, [rl, call('BatchGetItem')])).toEqual({ target: WRITE_TARGETS.replay, met: true });
    expect(targetOf('create', { keyed: 'replay' }, [rl, position, tx, call('PutItem')])).toEqual({ target: WRITE_TARGETS.replay, met: false });
    // a keyed create reads the feed counter with the key (its position is taken in the transaction): that read is its position call
    const counterRead = call('BatchGetItem', { feedPosition: true });
    expect(targetOf('create', { plain: true, keyed: 'first' }, [rl, counterRead, tx])).toEqual({ target: WRITE_TARGETS.plainCreate, met: true });
    expect(targetOf('create', { plain: true, keyed: 'first' }, [rl, counterRead, position, tx])!.met).toBe(false);
    expect(targetOf('create', { keyed: 'replay' }, [rl, counterRead])).toEqual({ target: WRITE_TARGETS.replay, met: true });
    expect(callReasons('create', [rl, counterRead, tx])).toEqual([expect.stringMatching(/^BatchGetItem: reads the change feed counter and the Idempotency-Key's record/)]);
  });

  test('every data call above the write gets a reason; the transaction and the rate-limit write do not', () => {
    const reasons = callReasons('update', [rl, call('GetItem'), position, tx], 'the lock is keyed by the stored name');
    expect(reasons).toHaveLength(2);
    expect(reasons[0]).toMatch(/^GetItem: reads the stored record .*; the lock is keyed by the stored name$/);
    expect(reasons[1]).toMatch(/^UpdateItem: takes the change feed position/);
    const create = callReasons('create', [rl, call('PutItem', { idempotency: true }), call('GetItem'), position, tx, call('UpdateItem', { idempotency: true })]);
    expect(create.map((r) => r.split(':')[0])).toEqual(['PutItem', 'GetItem', 'UpdateItem', 'UpdateItem']);
    expect(create[0]).toMatch(/Idempotency-Key/);
    expect(create[1]).toMatch(/references/);
  });
});
