// The running-timer rule and the rollups, bound to the time-entry repository (this function writes time entries).
import '../../shared/services/timers';
import { entityHandler } from '../../shared/api/crud';
import { CSV_FORMATS } from '../../shared/api/csv';
import { timeEntriesRoutes } from '../../shared/api/routes/time-entries';
import { timerOperations } from '../../shared/api/timers';

export const handler = entityHandler(timeEntriesRoutes, timerOperations, { csv: CSV_FORMATS });
