/**
 * `npm run cdk -- synth --quiet` (bin/cdk.sh sets CDK_QUIET=1 for --quiet or -q): the CDK writes
 * "Bundling asset <path>..." to stderr for every function it bundles, whatever the CLI's --quiet says.
 * Quiet means without those lines; everything else written to the stream (errors, esbuild's warnings,
 * the CLI's own notices) still shows. test/cdk/quiet-bundling.test.ts bundles a function with it on and off.
 */
export const BUNDLING_LINE = /^Bundling asset [^\n]*\.\.\.\n$/;

type Write = (chunk: unknown, ...rest: unknown[]) => boolean;

/** Drops the CDK's "Bundling asset ..." lines from what is written to the stream. */
export function hideBundlingLines(stream: { write: unknown }): void {
  const write = (stream.write as Write).bind(stream);
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== 'string' || !BUNDLING_LINE.test(chunk)) return write(chunk, ...rest);
    const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    done?.();
    return true;
  }) as Write;
}
