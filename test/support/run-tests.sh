#!/usr/bin/env bash
# The jest part of `npm test` (after the type-check): the files that share the machine on jest's workers,
# then the files marked `@run-alone` one at a time (jest.config.js says how files are grouped). Both runs
# always run; the exit status is non-zero if either failed. Arguments go to both jest runs
# (`npm run test:unit -- test/local` runs that folder's files in their groups). Each file's time is
# printed as it ends, and the slowest 15 of both runs at the end (test/support/timing-reporter.js).
set -u
JEST_TIMINGS_FILE="$(mktemp)"
export JEST_TIMINGS_FILE
trap 'rm -f "$JEST_TIMINGS_FILE"' EXIT
JEST_GROUP=parallel jest "$@"
parallel=$?
JEST_GROUP=alone jest --runInBand "$@"
alone=$?
if [ "$parallel" -ne 0 ] || [ "$alone" -ne 0 ]; then
  echo "npm test: jest failed (files in parallel: exit $parallel; files run alone: exit $alone)" >&2
  exit 1
fi
