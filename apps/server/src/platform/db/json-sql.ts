/**
 * Pieces of SQL for API objects that PostgreSQL builds as JSON text (the ticket
 * lists, the conversation pages): the server then sends them without mapping rows
 * into objects and serializing them again.
 */

/** A timestamptz column as `Date.toISOString()` writes it: UTC, milliseconds (truncated, as node-postgres reads them). */
export const isoTimestampSql = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
