import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_FREE_TESTS } from './database-free-tests.js';

/** What a test file that uses a database names: the test contexts and fixtures that make one, or the database itself. */
const USES_A_DATABASE =
  /test-app|test-database|createTestContext|channel-test-app|route-fixtures|realtime-node|backup-fixture|data-dir-process|server-process|automation-harness|TEST_DATABASE|DATABASE_URL|pglite|postgres|drizzle|startServer/i;

describe('the test files test:pg leaves out', () => {
  it.each(DATABASE_FREE_TESTS)('%s uses no database', (file) => {
    const text = readFileSync(path.join(import.meta.dirname, '../..', file), 'utf8');
    expect(text.match(USES_A_DATABASE)?.[0]).toBeUndefined();
  });
});
