import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { apiClient, useTestTable } from '../support/harness';

/**
 * Contract, part 3: Redocly CLI lints the served document with the repo's redocly.yaml (recommended
 * ruleset; the rules turned off there say why). Zero errors and zero warnings, so a new warning shows up
 * in CI instead of piling up. Runs offline: telemetry and the update check are off.
 */
useTestTable();
const api = apiClient();
const ROOT = resolve(__dirname, '../..');

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer?: string }> }>;
}

function lint(doc: unknown): LintReport {
  const dir = mkdtempSync(join(tmpdir(), 'redocly-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format=json'], {
      encoding: 'utf8',
      timeout: 120_000,
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    });
    const start = run.stdout.indexOf('{');
    if (start < 0) throw new Error(`redocly printed no report (exit ${run.status}): ${run.stderr}`);
    return JSON.parse(run.stdout.slice(start)) as LintReport;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const describeProblems = (r: LintReport) => r.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);

test('the served document lints clean: no errors, no warnings', async () => {
  const res = await api.get('/v1/openapi.json', { headers: { Host: 'api.timetrack.test', 'X-Forwarded-Proto': 'https' } });
  expect(res.status).toBe(200);
  const report = lint(res.body);
  expect(describeProblems(report)).toEqual([]);
  expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
}, 120_000);

test('the lint does find problems (a broken copy of the document fails)', async () => {
  const doc = (await api.get('/v1/openapi.json', { headers: { Host: 'api.timetrack.test', 'X-Forwarded-Proto': 'https' } })).body;
  doc.paths['/v1/clients'].get.operationId = 'getClient'; // duplicate operationId
  doc.paths['/v1/clients/{id}'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/Missing' };
  delete doc.paths['/v1/tags/{id}'].get.parameters; // {id} no longer declared
  const report = lint(doc);
  expect(report.totals.errors).toBeGreaterThanOrEqual(3);
  const rules = report.problems.map((p) => p.ruleId);
  expect(rules).toEqual(expect.arrayContaining(['operation-operationId-unique', 'no-unresolved-refs', 'path-parameters-defined']));
}, 120_000);
