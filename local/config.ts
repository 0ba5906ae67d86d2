/** Defaults of the local run (npm start) and the admin CLI against DynamoDB Local. */
export const LOCAL_TABLE_NAME = 'timetrack-local';
/** Development-only cursor-signing secret; deployed stacks use a generated Secrets Manager secret. */
export const DEV_CURSOR_SECRET = 'local-development-cursor-secret-not-for-production';
export const DEMO_WORKSPACE = 'demo';
