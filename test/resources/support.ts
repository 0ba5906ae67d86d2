import { makeKey, newWorkspace, tableSnapshot } from '../support/harness';
import type { Scope } from '../../shared/api/routes';

/**
 * Helpers of the resource tests. Keys get generous rate limits so a long test never meets the
 * limiter (tested elsewhere); snapshots leave out the limiter's counters, which every request moves.
 */
export const HIGH_LIMITS = { perMinute: 100_000, perHour: 1_000_000 };

export async function workspaceWithKey(label = 'ws', scopes?: Scope[]): Promise<{ ws: string; key: string }> {
  const ws = newWorkspace(label);
  const key = await makeKey(ws, { ...HIGH_LIMITS, ...(scopes ? { scopes } : {}) });
  return { ws, key };
}

/** Every stored item except rate-limit counters (to prove a rejected request changed no data). */
export async function dataSnapshot(): Promise<string[]> {
  return (await tableSnapshot()).filter((item) => !item.includes('"PK":"RATE#'));
}

/** The error code and message of a response, for compact assertions. */
export const err = (res: { status: number; body: any }) => ({ status: res.status, code: res.body?.error?.code, message: String(res.body?.error?.message ?? '') });

/** Field names of a validation error's details. */
export const fields = (res: { body: any }): string[] => (res.body?.error?.details ?? []).map((d: { field: string }) => d.field);
