import { appendFileSync } from 'node:fs';

/**
 * How much CPU a test file's own process used (its JavaScript and the libraries it calls in-process; not
 * DynamoDB Local, spawned processes or time spent waiting): appended to JEST_CPU_FILE when the file ends, for
 * test/support/timing-reporter.js, which prints it next to the file's wall time. A file whose worker
 * holds a core for 60 s while using 10 s of CPU spends its time waiting (DynamoDB Local, a child process, a
 * timer), which is where more workers, fewer waits or a cheaper fixture help.
 */
const started = process.cpuUsage();
afterAll(() => {
  const file = process.env.JEST_CPU_FILE;
  if (!file) return;
  const used = process.cpuUsage(started);
  appendFileSync(file, `${JSON.stringify({ path: expect.getState().testPath, cpu: (used.user + used.system) / 1e6 })}\n`);
});
