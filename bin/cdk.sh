#!/usr/bin/env bash
# `npm run cdk -- <command> [options]`: the CDK CLI offline (no telemetry, no notices). With --quiet (-q)
# the app prints no "Bundling asset ..." lines either (bin/app.ts reads CDK_QUIET).
for arg in "$@"; do
  case "$arg" in --quiet | -q) export CDK_QUIET=1 ;; esac
done
export CDK_DISABLE_CLI_TELEMETRY=true
exec cdk --no-notices "$@"
