import { entityHandler } from '../../shared/api/crud';
import { timeEntriesRoutes } from '../../shared/api/routes/time-entries';
import { timerOperations } from '../../shared/api/timers';

export const handler = entityHandler(timeEntriesRoutes, timerOperations);
