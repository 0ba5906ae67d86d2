import { join } from 'node:path';

/**
 * The running-timer rule lives in shared/services/timers.ts and binds itself to the time-entry repository
 * through the port shared/data/companions.ts (shared/data holds no timer logic). Each entry point that
 * writes time entries must load it: checked here in a fresh module registry (the jest setup binds it for
 * the tests that write through the repositories, test/support/bind.ts), and a write with nothing bound is refused.
 */
const ROOT = join(__dirname, '../..');

function boundAfterLoading(entry: string): boolean {
  let bound = false;
  jest.isolateModules(() => {
    require(join(ROOT, entry));
    const { companionOf } = require(join(ROOT, 'shared/data/companions')) as typeof import('../../shared/data/companions');
    const { timeEntries } = require(join(ROOT, 'shared/domain/entities/time-entries')) as typeof import('../../shared/domain/entities/time-entries');
    bound = companionOf(timeEntries) !== undefined;
  });
  return bound;
}

test.each(['functions/time-entries/index.ts', 'shared/seed/seed-demo.ts'])('%s binds the timer rule', (entry) => {
  expect(boundAfterLoading(entry)).toBe(true);
});

// The functions that write no time entry (starting a timer from a favorite is the time-entries function's
// route) carry no timer rule in their bundle (issue 35: each function carries its own code).
test.each(['functions/favorites/index.ts', 'functions/clients/index.ts'])('%s, which writes no time entry, does not load the timer rule', (entry) => {
  // companionOf throws for an entity that needs its companion and has none (the last test)
  expect(() => boundAfterLoading(entry)).toThrow('No companion bound for time-entries');
});

test('with nothing bound, a time-entry write is refused, not written without its rule', () => {
  jest.isolateModules(() => {
    const { companionOf } = require(join(ROOT, 'shared/data/companions')) as typeof import('../../shared/data/companions');
    const { timeEntries } = require(join(ROOT, 'shared/domain/entities/time-entries')) as typeof import('../../shared/domain/entities/time-entries');
    const { clients } = require(join(ROOT, 'shared/domain/entities/clients')) as typeof import('../../shared/domain/entities/clients');
    expect(() => companionOf(timeEntries)).toThrow('No companion bound for time-entries');
    expect(companionOf(clients)).toBeUndefined();
  });
});
