/**
 * Imported first by the hygiene suite, before any module that creates the Powertools logger: the suite
 * captures logs at their most verbose, with event logging on, as an operator debugging production might.
 */
process.env.POWERTOOLS_LOG_LEVEL = 'DEBUG';
process.env.POWERTOOLS_LOGGER_LOG_EVENT = 'true';
process.env.POWERTOOLS_DEV = 'false';
export {};
