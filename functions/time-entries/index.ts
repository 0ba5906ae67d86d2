import { entityHandler } from '../../shared/api/crud';
import { timerOperations } from '../../shared/api/timers';

export const handler = entityHandler('time-entries', timerOperations);
