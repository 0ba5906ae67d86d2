import { registerSection, runBench, SECTIONS, TINY } from '../../bench/run';

/**
 * `npm run bench`'s plumbing end to end on tiny counts (bench/run.ts TINY): the bundles are built, then
 * every registered section runs on its own table of the test's DynamoDB Local, each within its time bound.
 * Not timed: no figure is asserted, only that every section finished, printed its table and targets, and
 * that a section that hangs fails (its bound names it) instead of holding the run, as the webhook
 * section once did for 13 minutes.
 */
jest.setTimeout(15 * 60_000);

test('every section of the benchmark runs on tiny counts and finishes', async () => {
  const log: string[] = [];
  const run = await runBench(TINY, { dynamoEndpoint: process.env.DYNAMODB_ENDPOINT!, log: (s) => log.push(s) });
  expect(run.failures).toEqual([]);
  // every registered section ran, in order, and none failed
  expect(run.timings.map((t) => t.key)).toEqual(SECTIONS.map((s) => s.key));
  expect(run.timings.every((t) => t.ok)).toBe(true);
  // one table per section (section 1 and those registered), each with text, and targets printed MET / NOT MET
  const titles = run.sections.map((s) => s.title);
  expect(titles[0]).toBe('1. Bundles');
  for (const n of ['2.', '3.', '4.', '5.', '6.', '7.', '8.', '9.', '10.', '11.']) expect(titles.some((t) => t.startsWith(n))).toBe(true);
  for (const s of run.sections) expect(s.text.length).toBeGreaterThan(0);
  const sectionsWithTargets = new Set(run.targets.map((t) => t.section.split(' ')[0]));
  for (const n of ['1', '2', '3', '4', '5', '6', '7', '10', '11', '12']) expect(sectionsWithTargets.has(n)).toBe(true);
  // the bundle table shows each function's size by package
  expect(run.sections[0]!.text).toContain('By package');
  expect(run.sections[0]!.text).toContain('(project)');
});

test('a section that hangs fails within its bound, named, and the sections after it still run', async () => {
  const log: string[] = [];
  const hang = {
    key: 'hang-test',
    title: () => 'a section that never finishes',
    boundSeconds: 2,
    measure: () => new Promise<never>(() => undefined),
  };
  const after = {
    key: 'after-hang-test',
    title: () => 'the section after it',
    boundSeconds: 10,
    measure: async () => () => [{ title: 'after', text: 'ran', markdown: 'ran' }],
  };
  registerSection(hang);
  registerSection(after);
  try {
    const t0 = performance.now();
    const run = await runBench(TINY, { dynamoEndpoint: process.env.DYNAMODB_ENDPOINT!, only: [hang.key, after.key], log: (s) => log.push(s) });
    // not a timing assertion: the run returned at all (the hang did not hold it), within the test's own timeout
    expect(performance.now() - t0).toBeGreaterThan(0);
    expect(run.timings).toEqual([
      { key: hang.key, seconds: expect.any(Number), ok: false },
      { key: after.key, seconds: expect.any(Number), ok: true },
    ]);
    expect(run.failures).toHaveLength(1);
    expect(run.failures[0]).toContain('a section that never finishes');
    expect(run.failures[0]).toContain('gave up after 1.0 s waiting for section "a section that never finishes" to finish (its bound)');
    expect(run.sections.map((s) => s.title)).toEqual(['1. Bundles', 'after']);
  } finally {
    SECTIONS.splice(SECTIONS.indexOf(hang), 1);
    SECTIONS.splice(SECTIONS.indexOf(after), 1);
  }
});
