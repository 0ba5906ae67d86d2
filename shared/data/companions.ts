import type { AnyEntity } from '../domain/entity';
import { timeEntries } from '../domain/entities/time-entries';
import { timeEntryCompanion, type Companion } from './timers';

/**
 * Writes an entity's records carry besides their own ops, locks and usage counters, planned per write
 * by the repository (shared/data/repository.ts): time entries keep the one-running-timer rule and the
 * report rollups (shared/data/timers.ts, shared/data/rollups.ts).
 */
const COMPANIONS = new Map<AnyEntity, Companion>([[timeEntries, timeEntryCompanion]]);

export const companionOf = (entity: AnyEntity): Companion | undefined => COMPANIONS.get(entity);
