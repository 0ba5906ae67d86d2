import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildOpenApi } from '../../shared/api/openapi';

/**
 * Spectral (@stoplight/spectral-cli) over the OpenAPI document, with the two committed rulesets:
 * spectral-oas.yaml (Spectral's `spectral:oas`) and spectral-owasp.yaml (the OWASP API Security ruleset,
 * rules switched off there each with its reason). Used by test/contract/spectral.test.ts and, as a CLI,
 * by .ci/run:
 *
 *   npx tsx test/contract/spectral.ts     # lints the document with both rulesets; exit 1 on any finding
 *
 * The document is written to a folder under the repository root (removed afterwards): the rulesets'
 * overrides name JSON pointers of `**\/openapi.json`, and Spectral resolves those globs from the ruleset's
 * folder (hidden folders and node_modules excluded).
 */
const ROOT = resolve(__dirname, '../..');
export const RULESETS = { oas: join(ROOT, 'spectral-oas.yaml'), owasp: join(ROOT, 'spectral-owasp.yaml') } as const;
export type RulesetName = keyof typeof RULESETS;

export interface SpectralFinding {
  code: string;
  message: string;
  path: string[];
  /** 0 error, 1 warning, 2 info, 3 hint */
  severity: number;
}

/** Lints one document with one ruleset: what Spectral reports. */
export function spectralLint(doc: unknown, ruleset: RulesetName): SpectralFinding[] {
  return spectralLintAll([doc], ruleset)[0]!;
}

/**
 * Lints several documents with one ruleset in ONE Spectral process (its start-up and the ruleset's loading
 * are most of a lint's time): the findings of each document, in the order given. Each is written as
 * `<n>/openapi.json`, so the rulesets' `**\/openapi.json` overrides apply to every one.
 */
export function spectralLintAll(docs: readonly unknown[], ruleset: RulesetName): SpectralFinding[][] {
  const dir = mkdtempSync(join(ROOT, 'spectral-lint-'));
  try {
    const files = docs.map((doc, i) => {
      mkdirSync(join(dir, String(i)));
      const file = join(dir, String(i), 'openapi.json');
      writeFileSync(file, JSON.stringify(doc, null, 2));
      return file;
    });
    // A bound for a hung Spectral, not a speed target: one lint takes 10-40 s on an idle machine, and a
    // loaded one (CI's 2 cores shared by two test files and another process) took over 120 s, its old bound.
    const run = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/@stoplight/spectral-cli/dist/index.js'),
        'lint',
        ...files,
        '--ruleset',
        RULESETS[ruleset],
        '--format',
        'json',
        '--quiet',
        '--fail-severity',
        'hint',
      ],
      { encoding: 'utf8', timeout: 300_000, cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } },
    );
    const start = run.stdout.indexOf('[');
    if (start < 0) throw new Error(`spectral printed no report (exit ${run.status}${run.signal ? `, ${run.signal}: over its 300 s bound` : ''}): ${run.stderr}${run.stdout}`);
    const findings = JSON.parse(run.stdout.slice(start)) as Array<SpectralFinding & { source?: string }>;
    const out = files.map((): SpectralFinding[] => []);
    for (const { source, ...f } of findings) {
      const i = files.length === 1 && source === undefined ? 0 : files.indexOf(resolve(String(source)));
      if (i < 0) throw new Error(`spectral reported a finding in ${source}, none of the linted documents: ${f.code} ${f.message}`);
      out[i]!.push(f);
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const describeFindings = (findings: SpectralFinding[]) =>
  findings.map((f) => `${['error', 'warning', 'info', 'hint'][f.severity] ?? f.severity} ${f.code}: ${f.message} at ${f.path.join('.')}`);

if (require.main === module) {
  // The document as served from a deployed stage (its servers entry is the address the request reached).
  const doc = buildOpenApi('https://api.timetrack.test/prod');
  let failed = false;
  for (const name of Object.keys(RULESETS) as RulesetName[]) {
    const findings = spectralLint(doc, name);
    const count = (sev: number) => findings.filter((f) => f.severity === sev).length;
    console.log(`spectral ${name} (${RULESETS[name].slice(ROOT.length + 1)}): ${count(0)} errors, ${count(1)} warnings, ${count(2)} infos, ${count(3)} hints`);
    for (const line of describeFindings(findings)) console.log(`  ${line}`);
    if (findings.length) failed = true;
  }
  process.exit(failed ? 1 : 0);
}
