import { describe, expect, it } from 'vitest';
import { pickTool, PostgresToolError, type Tool } from './postgres.js';

const tool = (major: number): Tool => ({ path: `/usr/lib/postgresql/${major}/bin/pg_dump`, major, version: `${major}.2` });

describe('choosing pg_dump and psql for the server', () => {
  it('takes the tool of the server version, else the closest newer one', () => {
    expect(pickTool([tool(17), tool(15), tool(16)], 'pg_dump', 15, '15.20')).toEqual(tool(15));
    expect(pickTool([tool(17), tool(13)], 'pg_dump', 15, '15.20')).toEqual(tool(17));
  });

  it('refuses a pg_dump older than the server with what to install; psql of any version will do', () => {
    expect(() => pickTool([tool(15)], 'pg_dump', 16, '16.4')).toThrow(
      new PostgresToolError(
        'The database runs PostgreSQL 16.4; pg_dump must be version 16 or newer (found /usr/lib/postgresql/15/bin/pg_dump 15.2). ' +
          'Install it (Debian: apt-get install postgresql-client-16) or name its folder with --pg-bin.',
      ),
    );
    expect(() => pickTool([], 'pg_dump', 16, '16.4')).toThrow('(no pg_dump found)');
    expect(pickTool([tool(14), tool(15)], 'psql', 16, '16.4')).toEqual(tool(15));
  });
});
