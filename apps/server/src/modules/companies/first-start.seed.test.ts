import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../platform/db/client.js';
import { companies, settings, users } from '../../platform/db/schema.js';
import { openTestDatabase } from '../../test/test-database.js';
import { seedFirstStart } from './first-start.seed.js';

describe('first-start seed', () => {
  it('seeds once, prints a generated password once, and a reopened embedded database keeps everything', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'atende-seed-')), 'pglite');
    const first = await openDatabase({ dataDir: dir });
    await first.migrate();
    const seeded = await seedFirstStart(first.db, { adminEmail: 'Admin@Admin.com' });
    expect(seeded).toMatchObject({ seeded: true, adminEmail: 'admin@admin.com', generatedPassword: expect.any(String) });
    expect((await first.db.select().from(companies)).map((c) => c.id)).toEqual([1]);
    expect((await first.db.select().from(settings)).length).toBeGreaterThan(5);
    await first.close();

    const second = await openDatabase({ dataDir: dir });
    await second.migrate();
    const again = await seedFirstStart(second.db, { adminEmail: 'admin@admin.com' });
    expect(again.seeded).toBe(false);
    expect(again.generatedPassword).toBeUndefined();
    const admins = await second.db.select().from(users);
    expect(admins).toHaveLength(1);
    expect(admins[0]).toMatchObject({ super: true, profile: 'admin', companyId: 1 });
    await second.close();
  });

  it('seeds once when nodes start together on an empty database', async () => {
    const database = await openTestDatabase();
    try {
      const starts = await Promise.all([1, 2, 3].map(() => seedFirstStart(database.db, { adminEmail: 'admin@admin.com', adminPassword: 'Together-123' })));
      expect(starts.filter((start) => start.seeded)).toHaveLength(1);
      expect(await database.db.select().from(companies)).toHaveLength(1);
      expect(await database.db.select().from(users)).toHaveLength(1);
    } finally {
      await database.close();
    }
  });
});
