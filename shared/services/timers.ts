import { changeOf, type Change } from '../domain/changes';
import { isRunning, timeEntries, type TimeEntry } from '../domain/entities/time-entries';
import { conflict } from '../domain/errors';
import { bindCompanion, type Companion } from '../data/companions';
import { rollupOps } from '../data/rollups';
import { clearTimerOp, readRunningTimer, setTimerOp } from './timer-store';
import type { WriteOp } from '../data/write';

/**
 * What travels with every time-entry write besides the record itself: the running-timer rule and the
 * report rollups. Bound to the time-entry repository on import (`bindCompanion`, shared/data/companions.ts,
 * the port the repository calls), so every entry point that writes time entries imports this module:
 * shared/api/crud.ts, shared/invoicing/service.ts, the seeders, the bench; the tests through
 * test/support/env.ts.
 *
 * One running timer per user: the item `RUNNING#<userId>` (keys.runningTimer) holds the sortKey of the
 * user's running entry (its reads and writes: shared/services/timer-store.ts). The companion sees the
records before and after the write as the API shows them (typed TimeEntry, never the stored item); the
repository's context reads the other running entry and rewrites it (shared/data/companions.ts). A write that leaves an entry running reads it first; if it names another
 * running entry, that entry is stopped at the new one's startTime in the same transaction (its own
 * `time-entry.updated` event with it), or the write is refused with 409 when that would end it before it
 * began. The timer item is written with the condition that it still names what was read (or is absent),
 * so of two concurrent starts for one user one commits and the other re-reads and, on its retry, stops
 * the first one: whatever the interleaving, one entry is left running. A write that stops, moves or
 * deletes the running entry updates or deletes the item in the same transaction.
 *
 * Every record written (the entry and a stopped one) also adds its rollup changes (shared/data/rollups.ts).
 */
const running = (rec: TimeEntry | undefined): rec is TimeEntry => rec !== undefined && isRunning(rec);

export const timeEntryCompanion: Companion<typeof timeEntries> = async (ctx) => {
  const { workspaceId, before, after } = ctx;
  const ops: WriteOp[] = [];
  const changes: Change[] = [];
  const written: Array<readonly [TimeEntry | undefined, TimeEntry | undefined]> = [[before, after]];
  const wasRunning = running(before);
  const runs = running(after);
  const sameUser = wasRunning && runs && before.userId === after.userId;

  // The timer of the user the entry ran for, when it stops running there (stopped, moved to another user, deleted).
  if (wasRunning && !sameUser) {
    const timer = await readRunningTimer(workspaceId, before.userId);
    // Only when it names this entry (entries stored before the rule existed may have no timer item).
    if (timer && timer.sortKey === before.sortKey) ops.push(clearTimerOp(workspaceId, before.userId, timer));
  }

  if (runs) {
    const timer = await readRunningTimer(workspaceId, after.userId);
    const otherSK = timer && timer.sortKey !== before?.sortKey && timer.sortKey !== after.sortKey ? timer.sortKey : undefined;
    const other = otherSK ? await ctx.readSibling(otherSK) : undefined;
    if (other && running(other.record) && other.record.userId === after.userId && other.record.id !== after.id) {
      const stopAt = after.startTime;
      if (stopAt < other.record.startTime) {
        // Refused with 409, but as the transaction's last check (a condition that fails while the other
        // entry exists), so that a refusal of the write itself (a missing reference: 400) comes first.
        const message = `User ${after.userId} has a running time entry (${other.record.id}) that started at ${other.record.startTime}, after this entry's startTime: stopping it at ${stopAt} would end it before it began; stop it first`;
        return { ops: [other.refusal(() => conflict(message))], changes: [], refused: true };
      }
      const stopped = other.rewrite({ endTime: stopAt, updatedAt: after.updatedAt });
      ops.push(stopped.op);
      changes.push(changeOf(timeEntries, 'updated', stopped.record.id, stopped.record));
      written.push([other.record, stopped.record]);
    }
    if (!timer || timer.sortKey !== after.sortKey) {
      // a record the repository presents always has its sortKey (the item's SK)
      if (after.sortKey === undefined) throw new Error('a time entry without its sortKey');
      ops.push(setTimerOp(workspaceId, after.userId, { sortKey: after.sortKey, id: after.id }, timer));
    }
  }

  ops.push(...rollupOps(workspaceId, written));
  return { ops, changes };
};

bindCompanion(timeEntries, timeEntryCompanion);
