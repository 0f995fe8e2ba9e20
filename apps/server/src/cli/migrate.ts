import path from 'node:path';
import { loadConfig } from '../config.js';
import { openDatabase } from '../platform/db/client.js';

/** `npm run db:migrate`: applies pending migrations to the configured database. */
const config = loadConfig();
const database = await openDatabase({
  url: config.DATABASE_URL,
  dataDir: config.DATABASE_URL ? undefined : path.join(config.DATA_DIR, 'pglite'),
});
await database.migrate();
await database.close();
process.stdout.write(`migrations applied (${database.kind})\n`);
