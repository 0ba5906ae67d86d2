/** Defaults of the local run (npm start). The table name is shared with the admin CLI (shared/data/db.ts). */
export { LOCAL_TABLE_NAME } from '../shared/data/db';
/** Development-only cursor-signing secret; deployed stacks use a generated Secrets Manager secret. */
export const DEV_CURSOR_SECRET = 'local-development-cursor-secret-not-for-production';
export const DEMO_WORKSPACE = 'demo';
/** The console's client id at the local OpenID Provider (local/oidc.ts). */
export const CONSOLE_CLIENT_ID = 'timetrack-console';
/** The demo workspace's owner, made on npm start's first run (its password is printed once). */
export const DEMO_OWNER_EMAIL = 'owner@demo.example';
