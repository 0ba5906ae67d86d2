import { consoleHandler } from '../../shared/console/handler';

/** The console: its page and assets (public) and its API (/console/api/..., behind the console authorizer). */
export const handler = consoleHandler();
