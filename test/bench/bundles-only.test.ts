import { runBench, TINY } from '../../bench/run';

/**
 * `npm run bench -- --only bundles`: section 1 alone (every bundle built and sized by bench/bundles.ts with the
 * stack's esbuild options), without DynamoDB Local or any measured section. Its note lists each missed size
 * target once, with the packages that hold it, then one paragraph per package naming the functions it holds:
 * every such package has a paragraph of its own saying what removing it would cost (none says "no note").
 */
jest.setTimeout(5 * 60_000);

test('--only bundles: section 1 alone, no DynamoDB Local; each missed target once, each package holding one explained once', async () => {
  const log: string[] = [];
  const run = await runBench(TINY, { only: ['bundles'], log: (s) => log.push(s) });
  expect(run.failures).toEqual([]);
  expect(run.timings).toEqual([]);
  expect(run.sections.map((s) => s.title)).toEqual(['1. Bundles']);
  expect(log.join('\n')).not.toContain('DynamoDB Local');
  const text = run.sections[0]!.text;
  const missed = run.targets.filter((t) => t.section === '1 bundles' && !t.met && t.name.startsWith('bundle ') && !t.name.endsWith('every function'));
  const overLines = text.split('\n').filter((l) => / KB over \d+ KB; held by /.test(l));
  expect(overLines.map((l) => /^- ([\w-]+):/.exec(l)?.[1]).sort()).toEqual(missed.map((t) => /^bundle ([\w-]+) /.exec(t.name)?.[1]).sort());
  if (!missed.length) return;
  const causes = text.slice(text.indexOf('What each package is there for')).split('\n').slice(1);
  // one paragraph per package, each naming the functions it holds; none without its note
  const packages = causes.map((l) => /^- (\S+) \(/.exec(l)?.[1]);
  expect(packages.every(Boolean)).toBe(true);
  expect(new Set(packages).size).toBe(packages.length);
  expect(causes.filter((l) => l.includes('no note'))).toEqual([]);
  for (const l of overLines) {
    const fn = /^- ([\w-]+):/.exec(l)![1]!;
    const held = [...l.matchAll(/(?:held by |, )(\S+) \d+\.\d/g)].map((m) => m[1]);
    for (const p of held) expect(causes.find((c) => c.startsWith(`- ${p} (`))).toContain(`${fn} `);
  }
});
