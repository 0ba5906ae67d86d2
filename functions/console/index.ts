import { consoleHandler, getConsoleOpenApi } from '../../shared/console/handler';

/** The console: its page and assets (public), its OpenAPI document and its API (/console/api/..., behind the console authorizer). */
export const handler = consoleHandler('console', { getConsoleOpenApi });
