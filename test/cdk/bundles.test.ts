import { build } from 'esbuild';
import { RESOURCES } from '../../shared/api/routes';
import { BUNDLING, MAX_BUNDLE_BYTES, PROJECT_ROOT, entryFor } from '../../lib/service-function';

/**
 * Builds every function with the esbuild options the stack uses (lib/service-function.ts BUNDLING) and
 * checks its size. `cdk synth` prints the same sizes while bundling.
 */
const NAMES = [...RESOURCES, 'openapi', 'me', 'authorizer'];

describe('function bundles', () => {
  const sizes = new Map<string, number>();

  beforeAll(async () => {
    await Promise.all(
      NAMES.map(async (name) => {
        const result = await build({
          entryPoints: [entryFor(name)],
          absWorkingDir: PROJECT_ROOT,
          bundle: true,
          write: false,
          platform: 'node',
          target: BUNDLING.target,
          format: BUNDLING.format,
          minify: BUNDLING.minify,
          sourcemap: BUNDLING.sourceMap,
          external: [...BUNDLING.externalModules],
          logLevel: 'silent',
        });
        sizes.set(
          name,
          result.outputFiles.reduce((n, f) => n + f.contents.byteLength, 0),
        );
      }),
    );
    console.log(`bundle sizes (limit ${MAX_BUNDLE_BYTES / 1024} KB):\n` + NAMES.map((n) => `  ${n.padEnd(14)} ${(sizes.get(n)! / 1024).toFixed(1).padStart(7)} KB`).join('\n'));
  }, 120_000);

  test.each(NAMES)(`%s is at most ${MAX_BUNDLE_BYTES / 1024} KB`, (name) => {
    expect(sizes.get(name)).toBeLessThanOrEqual(MAX_BUNDLE_BYTES);
  });
});
