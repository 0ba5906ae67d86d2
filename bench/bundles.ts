import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { BUNDLING, PROJECT_ROOT, entryFor, esbuildAliasOf } from '../lib/service-function';
import { FUNCTION_NAMES, RESOURCES } from '../shared/api/routes';

/**
 * Section 1: every function bundled with the stack's esbuild options (lib/service-function.ts BUNDLING:
 * the only thing this file chooses is whether the AWS SDK v3 is left to the runtime or bundled, to
 * compare both), plus the cold-start baseline (bench/cold/empty-handler.ts) built the same way.
 * Sizes and module counts come from esbuild's metafile.
 */
export const FUNCTIONS = [...FUNCTION_NAMES, 'authorizer'] as const;
/** The functions outside the API's route table: bundled and sized in section 1 too (their cold start is not measured). */
export const OTHER_FUNCTIONS = ['console', 'console-invoice-pdf', 'console-authorizer', 'webhook-dispatcher', 'webhook-sender'] as const;
/** Every function of the stack (each folder of functions/). */
export const ALL_FUNCTIONS = [...FUNCTIONS, ...OTHER_FUNCTIONS] as const;
export type FunctionId = (typeof ALL_FUNCTIONS)[number] | 'empty';
export type SdkMode = 'external' | 'bundled';
export const OUT_DIR = join(PROJECT_ROOT, 'bench', '.out');
export const SIZE_TARGET_BYTES = 200 * 1024;
/** The bundle-size target of one function (issues 27 and 35): authorizers 100 KB, an entity's function 150 KB, the invoice PDF 400 KB, any other 200 KB. */
export function sizeTargetOf(fn: FunctionId): { bytes: number; why: string } {
  if (fn === 'authorizer' || fn === 'console-authorizer') return { bytes: 100 * 1024, why: 'an authorizer' };
  if (fn === 'console-invoice-pdf') return { bytes: 400 * 1024, why: 'the invoice PDF (issue 35)' };
  if ((RESOURCES as readonly string[]).includes(fn)) return { bytes: 150 * 1024, why: "an entity's function" };
  return { bytes: SIZE_TARGET_BYTES, why: 'every function' };
}

/** How the stack bundles the SDK today (BUNDLING.externalModules lists @aws-sdk/* or not). */
export const STACK_SDK_MODE: SdkMode = (BUNDLING.externalModules as readonly string[]).some((m) => m.startsWith('@aws-sdk')) ? 'external' : 'bundled';

const entryOf = (fn: FunctionId) => (fn === 'empty' ? join(PROJECT_ROOT, 'bench', 'cold', 'empty-handler.ts') : entryFor(fn));

/** The stack's options; `sdk` only decides whether @aws-sdk/* stays external. */
export function esbuildOptions(fn: FunctionId, sdk: SdkMode, outfile: string): BuildOptions {
  const external = (BUNDLING.externalModules as readonly string[]).filter((m) => !m.startsWith('@aws-sdk'));
  return {
    entryPoints: [entryOf(fn)],
    absWorkingDir: PROJECT_ROOT,
    outfile,
    bundle: true,
    platform: 'node',
    target: BUNDLING.target,
    format: BUNDLING.format,
    minify: BUNDLING.minify,
    sourcemap: BUNDLING.sourceMap,
    external: sdk === 'external' ? [...external, '@aws-sdk/*'] : external,
    alias: fn === 'empty' ? {} : esbuildAliasOf(fn),
    metafile: true,
    logLevel: 'silent',
  };
}

export interface BundleInfo {
  fn: FunctionId;
  sdk: SdkMode;
  /** Where the bundle is (or would be: a build with `write: false` writes nothing). */
  file: string;
  bytes: number;
  modules: number;
  /** Bytes in the output per npm package ('(project)' = our own code), largest first. */
  packages: Array<[string, number]>;
}

export function packageOf(path: string): string {
  // The innermost node_modules names the package (nested copies count as the package they are).
  const all = [...path.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)/g)];
  return all.length ? all[all.length - 1]![1]! : '(project)';
}

export function analyse(meta: Metafile): { bytes: number; modules: number; packages: Array<[string, number]> } {
  const output = Object.values(meta.outputs).find((o) => o.entryPoint) ?? Object.values(meta.outputs)[0]!;
  const byPkg = new Map<string, number>();
  for (const [path, inp] of Object.entries(output.inputs)) byPkg.set(packageOf(path), (byPkg.get(packageOf(path)) ?? 0) + inp.bytesInOutput);
  return { bytes: output.bytes, modules: Object.keys(output.inputs).length, packages: [...byPkg].sort((a, b) => b[1] - a[1]) };
}

/**
 * One bundle, written to OUT_DIR (the cold starts load it from there) unless `write` is false: sized from
 * esbuild's metafile alone, the same figures, and nothing written to the folder another run of the same
 * checkout may be loading bundles from (`--only bundles` in test/bench/bundles-only.test.ts runs while
 * test/bench/plumbing.test.ts cold-starts the files).
 */
export async function buildBundle(fn: FunctionId, sdk: SdkMode, o: { write?: boolean } = {}): Promise<BundleInfo> {
  const write = o.write ?? true;
  const dir = join(OUT_DIR, sdk);
  if (write) mkdirSync(dir, { recursive: true });
  const file = join(dir, `${fn}.js`);
  const res = await build({ ...esbuildOptions(fn, sdk, file), write });
  return { fn, sdk, file, ...analyse(res.metafile!) };
}

/** Builds every function and the baseline in the given SDK modes (both by default; a mode not built is an empty list); `write` as buildBundle's. */
export async function buildAll(modes: readonly SdkMode[] = ['external', 'bundled'], o: { write?: boolean } = {}): Promise<Record<SdkMode, BundleInfo[]>> {
  const ids: FunctionId[] = [...ALL_FUNCTIONS, 'empty'];
  const result: Record<SdkMode, BundleInfo[]> = { external: [], bundled: [] };
  for (const sdk of modes) result[sdk] = await Promise.all(ids.map((fn) => buildBundle(fn, sdk, o)));
  return result;
}
