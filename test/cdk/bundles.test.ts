import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { build, type Metafile } from 'esbuild';
import { stageConfig } from '../../lib/config';
import { consoleAssetCommands } from '../../lib/console';
import { consoleOpenApiText } from '../../local/console-assets';
import { CONSOLE_ASSETS } from '../../shared/console/page';
import { RESOURCES } from '../../shared/api/routes';
import { BUNDLE_LIMITS, BUNDLING, MAX_BUNDLE_BYTES, PROJECT_ROOT, ServiceFunction, entryFor, esbuildAliasOf } from '../../lib/service-function';

/**
 * Builds every function (each folder of functions/) with the esbuild options the stack uses
 * (lib/service-function.ts BUNDLING) and checks its size against the limit of its kind (BUNDLE_LIMITS):
 * authorizers, entity functions, webhooks, the console, the invoice PDF, the others. What a bundle holds is printed by package, so a
 * regression names itself. `cdk synth` prints the same sizes while bundling.
 */
const NAMES = readdirSync(join(PROJECT_ROOT, 'functions')).sort();
const AUTHORIZERS = ['authorizer', 'console-authorizer'];
/** The entity functions with a feature of their own (timers and CSV; the invoicing wing): a limit of their own. */
const ENTITY_FEATURES = ['invoices', 'time-entries'];
type Kind = keyof typeof BUNDLE_LIMITS;
const kindOf = (name: string): Kind =>
  AUTHORIZERS.includes(name)
    ? 'authorizer'
    : name === 'webhooks'
      ? 'webhooks'
      : name === 'console' || name === 'console-keys'
        ? 'console'
        : name === 'console-invoice-pdf'
          ? 'invoicePdf'
          : ENTITY_FEATURES.includes(name)
            ? 'entityFeature'
            : (RESOURCES as readonly string[]).includes(name)
              ? 'entity'
              : 'other';

/** Bytes in the bundle by package (node_modules/<pkg>) or project folder (shared/data, functions/x, ...). */
function byPackage(meta: Metafile): Map<string, number> {
  const out = new Map<string, number>();
  for (const output of Object.values(meta.outputs))
    for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? file.split('/').slice(0, 2).join('/');
      out.set(pkg, (out.get(pkg) ?? 0) + bytesInOutput);
    }
  return out;
}
const kb = (n: number) => (n / 1024).toFixed(1);

describe('function bundles', () => {
  const sizes = new Map<string, number>();
  const packages = new Map<string, Map<string, number>>();
  const files = new Map<string, string[]>();

  beforeAll(async () => {
    await Promise.all(
      NAMES.map(async (name) => {
        const result = await build({
          entryPoints: [entryFor(name)],
          absWorkingDir: PROJECT_ROOT,
          bundle: true,
          write: false,
          outdir: join(PROJECT_ROOT, 'cdk.out', 'bundle-size', name),
          metafile: true,
          platform: 'node',
          target: BUNDLING.target,
          format: BUNDLING.format,
          minify: BUNDLING.minify,
          sourcemap: BUNDLING.sourceMap,
          external: [...BUNDLING.externalModules],
          alias: esbuildAliasOf(name),
          logLevel: 'silent',
        });
        sizes.set(
          name,
          result.outputFiles.reduce((n, f) => n + f.contents.byteLength, 0),
        );
        packages.set(name, byPackage(result.metafile));
        // the files that put bytes in the bundle (the metafile also lists those tree-shaking dropped whole)
        files.set(
          name,
          Object.values(result.metafile.outputs).flatMap((o) =>
            Object.entries(o.inputs)
              .filter(([, i]) => i.bytesInOutput > 0)
              .map(([f]) => f),
          ),
        );
      }),
    );
    const top = (name: string) =>
      [...packages.get(name)!]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([p, n]) => `${p} ${kb(n)}`)
        .join(', ');
    console.log(
      `bundle sizes (limit per kind, KB: ${Object.entries(BUNDLE_LIMITS)
        .map(([k, v]) => `${k} ${v / 1024}`)
        .join(', ')}):\n` + NAMES.map((n) => `  ${n.padEnd(19)} ${kb(sizes.get(n)!).padStart(7)} KB  ${kindOf(n).padEnd(10)} ${top(n)}`).join('\n'),
    );
  }, 120_000);

  test.each(NAMES)('%s is within the limit of its kind', (name) => {
    expect({ name, kind: kindOf(name), bytes: sizes.get(name) }).toEqual({ name, kind: kindOf(name), bytes: expect.any(Number) });
    expect(sizes.get(name)).toBeLessThanOrEqual(BUNDLE_LIMITS[kindOf(name)]);
    expect(sizes.get(name)).toBeLessThanOrEqual(MAX_BUNDLE_BYTES);
  });

  test('every kind is checked: the authorizers, the entity functions (one per resource: plain ones and those with a feature), webhooks and the others', () => {
    expect(NAMES.filter((n) => kindOf(n) === 'authorizer')).toEqual(AUTHORIZERS);
    expect(NAMES.filter((n) => kindOf(n) === 'entity' || kindOf(n) === 'entityFeature').sort()).toEqual(RESOURCES.filter((r) => r !== 'webhooks').sort());
    expect(NAMES.filter((n) => kindOf(n) === 'entityFeature')).toEqual(ENTITY_FEATURES);
    expect(NAMES.filter((n) => kindOf(n) === 'other').length).toBeGreaterThan(0);
  });

  test('no function bundles the local run (local/: the table-backed queue, the gateway)', () => {
    const local = NAMES.flatMap((name) =>
      files
        .get(name)!
        .filter((f) => f.startsWith('local/'))
        .map((f) => `${name}: ${f}`),
    );
    expect(local).toEqual([]);
  });

  test('the console function carries no PDF library (pdf-lib, its fonts, pako): the invoice PDF has its own function, console-invoice-pdf', () => {
    const pdf = /node_modules\/(pdf-lib|@pdf-lib\/|pako)\/?|shared\/services\/invoice-pdf/;
    expect(files.get('console')!.filter((f) => pdf.test(f))).toEqual([]);
    expect(files.get('console-invoice-pdf')!.some((f) => /node_modules\/pdf-lib\//.test(f))).toBe(true);
  });

  test("no function carries classic zod or zod's other locales (the schemas are written with zod/mini's functional API; classic is 90 KB, mini's part 30 KB)", () => {
    const classic = NAMES.flatMap((name) =>
      files
        .get(name)!
        .filter((f) => /node_modules\/zod\/(v4\/classic\/|v4\/locales\/(?!(en|index)\.js$)|v3\/)/.test(f))
        .map((f) => `${name}: ${f}`),
    );
    expect(classic).toEqual([]);
    // the guard reads the real file names: every function but the authorizers does bundle zod (its mini build)
    expect(NAMES.filter((n) => files.get(n)!.some((f) => f.includes('node_modules/zod/v4/mini/'))).length).toBe(NAMES.length - AUTHORIZERS.length);
  });

  test("each API function carries only its own routes (issue 35): the assembled table only in openapi (the document), another function's route module in none", () => {
    // route modules a function may carry besides its own and define.ts: the time-entries function's start-from-a-favorite
    // route is addressed as a favorite is (routes/favorites.ts)
    const shared: Readonly<Record<string, readonly string[]>> = { 'time-entries': ['favorites'] };
    const foreign = NAMES.flatMap((name) =>
      files
        .get(name)!
        .filter((f) => {
          if (f === 'shared/api/routes.ts') return name !== 'openapi';
          const module = /^shared\/api\/routes\/(.+)\.ts$/.exec(f)?.[1];
          return module !== undefined && name !== 'openapi' && module !== 'define' && module !== name && !shared[name]?.includes(module);
        })
        .map((f) => `${name}: ${f}`),
    );
    expect(foreign).toEqual([]);
    // the guard reads the real file names: the functions with a route module of their own do carry it
    expect(files.get('time-entries')).toContain('shared/api/routes/time-entries.ts');
    expect(files.get('clients')).toContain('shared/api/routes/define.ts');
    // CSV and the running-timer rule only where a route needs them
    const where = (re: RegExp) => NAMES.filter((n) => files.get(n)!.some((f) => re.test(f)));
    expect(where(/^shared\/api\/csv\.ts$/).sort()).toEqual(['reports', 'time-entries']);
    expect(where(/^shared\/services\/timers\.ts$/)).toEqual(['time-entries']);
  });

  test("the console functions carry no OpenAPI builder and no zod JSON Schema generator: the console's document is a file built with the bundle (lib/console.ts)", () => {
    const builder = /shared\/console\/openapi\.ts$|shared\/api\/kernel\/openapi\.ts$|node_modules\/zod\/v4\/core\/(to-json-schema|json-schema)/;
    const held = ['console', 'console-keys', 'console-invoice-pdf'].flatMap((name) =>
      files
        .get(name)!
        .filter((f) => builder.test(f))
        .map((f) => `${name}: ${f}`),
    );
    expect(held).toEqual([]);
    // the guard reads the real file names: the openapi function, which builds /v1's document, carries them
    expect(files.get('openapi')!.filter((f) => builder.test(f)).length).toBeGreaterThan(0);
  });

  test('the authorizer carries no zod, no entity declaration, no route table and no middy (what a merge once pulled back in)', () => {
    const held = files.get('authorizer')!.filter((f) => /node_modules\/(zod|@middy)\/|shared\/domain\/(entities\/|registry)|shared\/api\/(routes|schemas)/.test(f));
    expect(held).toEqual([]);
  });
});

describe("the console function's assets: built next to its bundle by the stack's own bundling (lib/console.ts consoleAssetCommands)", () => {
  test("its page script and style, and the console's OpenAPI document byte for byte as local/console-assets.ts builds it", () => {
    const app = new App();
    const stack = new Stack(app, 'ConsoleBundle');
    new ServiceFunction(stack, 'Console', {
      name: 'console',
      config: stageConfig('dev'),
      description: 'test',
      tableName: 'table',
      afterBundling: consoleAssetCommands,
    });
    const asm = app.synth();
    const dirs = readdirSync(asm.directory)
      .filter((d) => d.startsWith('asset.'))
      .map((d) => join(asm.directory, d))
      .filter((d) => existsSync(join(d, 'index.js')));
    expect(dirs).toHaveLength(1);
    expect(readdirSync(dirs[0]!).sort()).toEqual([CONSOLE_ASSETS.script, CONSOLE_ASSETS.style, CONSOLE_ASSETS.openapi, 'index.js'].sort());
    expect(readFileSync(join(dirs[0]!, CONSOLE_ASSETS.openapi), 'utf8')).toBe(consoleOpenApiText());
    expect(statSync(join(dirs[0]!, 'index.js')).size).toBeLessThanOrEqual(BUNDLE_LIMITS.console);
  }, 180_000);
});

describe('the invoice PDF function: pdf-lib with only what the invoice uses (lib/service-function.ts FUNCTION_ALIASES, shared/platform/pdf-lib/)', () => {
  const run = (args: string[], input?: string) =>
    execFileSync(process.execPath, args, { cwd: PROJECT_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...(input ? { input } : {}) });
  /** The text of a PDF by pdf-parse, in a plain Node process (pdf.js loads its worker with a dynamic import jest does not allow). */
  const pdfText = (file: string) =>
    run([
      '-e',
      "const { PDFParse } = require('pdf-parse'); const p = new PDFParse({ data: require('fs').readFileSync(process.argv[1]) }); p.getText().then((r) => { process.stdout.write(r.text); return p.destroy(); });",
      file,
    ]);
  const invoice = {
    id: '01JTESTPDF00000000000000000',
    number: 'INV-000042',
    clientId: '01JTESTCLIENT0000000000000',
    status: 'sent',
    issueDate: '2026-03-31',
    dueDate: '2026-04-30',
    currency: 'EUR',
    lineItems: [
      { description: 'Website: homepage design, café ☕', quantity: 1.5, unitPrice: 120, amount: 180 },
      { description: 'Support '.repeat(100), quantity: 2, unitPrice: 85.5, amount: 171 },
    ],
    subtotal: 351,
    tax: 66.69,
    total: 417.69,
    taxRate: 19,
    notes: 'Bank transfer within 30 days.\nThank you!',
  };

  test('the bundled renderer draws the same text as the package itself, and carries none of pako, upng or the 12 other fonts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pdf-bundle-'));
    // inside the project, so the bundle finds the AWS SDK it leaves external
    const bundleDir = join(PROJECT_ROOT, 'cdk.out', 'pdf-renderer-test');
    mkdirSync(bundleDir, { recursive: true });
    const result = await build({
      entryPoints: [join(PROJECT_ROOT, 'shared/services/invoice-pdf.ts')],
      absWorkingDir: PROJECT_ROOT,
      bundle: true,
      outfile: join(bundleDir, 'renderer.js'),
      metafile: true,
      platform: 'node',
      target: BUNDLING.target,
      format: BUNDLING.format,
      external: [...BUNDLING.externalModules],
      alias: esbuildAliasOf('console-invoice-pdf'),
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((f) => /node_modules\/(pako|@pdf-lib\/upng)\/|standard-fonts\/.*(Courier|Times|Symbol|Zapf|Oblique)/.test(f))).toEqual([]);
    // pdf-lib's own modules are those of its ES build (its nested tslib aside)
    const pdfLib = inputs.filter((f) => /node_modules\/pdf-lib\/(?!node_modules\/)/.test(f));
    expect(pdfLib.length).toBeGreaterThan(0);
    expect(pdfLib.filter((f) => !f.includes('node_modules/pdf-lib/es/'))).toEqual([]);
    // only its document model and writer: not its high-level API, the parser, or the image and custom-font embedders
    expect(pdfLib.filter((f) => /pdf-lib\/es\/(api\/|index\.js|core\/parser\/|core\/embedders\/(?!StandardFontEmbedder))/.test(f))).toEqual([]);
    const render = (module: string, out: string) =>
      run(
        [
          '-e',
          `require(process.argv[1]).invoicePdf(JSON.parse(require('fs').readFileSync(0, 'utf8')), { name: 'Studio North', address: 'Harbour 5' }, { name: 'Acme Corp' }).then((b) => require('fs').writeFileSync(process.argv[2], b));`,
          module,
          out,
        ],
        JSON.stringify(invoice),
      );
    render(join(bundleDir, 'renderer.js'), join(dir, 'bundled.pdf'));
    execFileSync(
      process.execPath,
      [
        join(PROJECT_ROOT, 'node_modules/tsx/dist/cli.mjs'),
        '-e',
        `require('./shared/services/invoice-pdf').invoicePdf(JSON.parse(require('fs').readFileSync(0, 'utf8')), { name: 'Studio North', address: 'Harbour 5' }, { name: 'Acme Corp' }).then((b) => require('fs').writeFileSync(process.argv[1], b));`,
        join(dir, 'source.pdf'),
      ],
      {
        cwd: PROJECT_ROOT,
        input: JSON.stringify(invoice),
      },
    );
    const bundled = pdfText(join(dir, 'bundled.pdf'));
    expect(bundled).toBe(pdfText(join(dir, 'source.pdf')));
    expect(bundled).toContain('Website: homepage design, café ? 1.50 €120.00 €180.00');
    expect(bundled).toContain('Total €417.69');
    // compressed by Node's zlib: the page's content stream is a FlateDecode stream zlib inflates back
    expect(readFileSync(join(dir, 'bundled.pdf')).toString('latin1')).toContain('/FlateDecode');
  }, 120_000);

  test("the stack's own bundling (NodejsFunction: esbuild's CLI with --alias) builds the same function", () => {
    const app = new App();
    const stack = new Stack(app, 'PdfBundle');
    new ServiceFunction(stack, 'Pdf', { name: 'console-invoice-pdf', config: stageConfig('dev'), description: 'test', tableName: 'table' });
    const asm = app.synth();
    const dirs = readdirSync(asm.directory).filter((d) => d.startsWith('asset.'));
    const built = dirs.map((d) => join(asm.directory, d, 'index.js')).filter((f) => existsSync(f));
    expect(built).toHaveLength(1);
    const code = readFileSync(built[0]!, 'utf8');
    // no pako (its messages), and the size of the bundle the size test builds with the same options (give or take esbuild's CLI banner)
    expect(code).not.toContain('incorrect header check');
    expect(Buffer.byteLength(code)).toBeLessThanOrEqual(BUNDLE_LIMITS.invoicePdf);
  }, 180_000);
});
