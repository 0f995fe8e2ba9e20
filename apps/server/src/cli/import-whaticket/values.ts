import { NO_EXPIRY_DUE_DATE } from '@atende/shared';
import type { ImportContext, Outcome } from './run.js';
import type { SourceRow } from './source.js';
import type { Mapped } from './target.js';

/** Small conversions from whaticket's values to Atende's. */

export const text = (value: unknown, fallback = ''): string => (value === null || value === undefined ? fallback : String(value));

export const optionalText = (value: unknown): string | null => (value === null || value === undefined || value === '' ? null : String(value));

export const int = (value: unknown, fallback = 0): number => {
  const n = Number(value);
  return value === null || value === undefined || !Number.isFinite(n) ? fallback : Math.trunc(n);
};

export const bool = (value: unknown, fallback: boolean): boolean => (value === null || value === undefined ? fallback : value === true || value === 'true' || value === 1);

export const instant = (value: unknown): string | null => {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
};

/** A timestamp column that Atende requires: the row's own, else its creation, else now. */
export const instantOr = (value: unknown, ...fallbacks: unknown[]): string =>
  instant(value) ?? fallbacks.map(instant).find((v) => v !== null) ?? new Date().toISOString();

const dayIn = (date: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);

/**
 * A whaticket due date (an instant) as Atende's calendar date, by Atende's own rule for
 * instants sent by older clients: midnight UTC is the day it was written from, any other
 * instant the day it falls on in the company's zone. None: Atende's "no expiry".
 */
export function dueDay(value: unknown, timeZone = 'America/Sao_Paulo'): string {
  if (value === null || value === undefined || value === '') return NO_EXPIRY_DUE_DATE;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const date = value instanceof Date ? value : new Date(String(value));
  if (Number.isNaN(date.getTime())) return NO_EXPIRY_DUE_DATE;
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : dayIn(date, timeZone);
}

/** Money as integer cents (DECISIONS §10). */
export const cents = (value: unknown): number => Math.round(Number(value ?? 0) * 100) || 0;

export const skip = (sourceId: string, reason: string): Outcome => ({ kind: 'skip', sourceId, reason });

/** The source id a step records for a row keyed by `id`. */
export const idOf = (row: SourceRow): string => String(row.k_id);

/** The map entries of `table` for a column of the page's rows. */
export function lookup(context: ImportContext, table: string, rows: SourceRow[], column: string): Promise<Map<string, Mapped>> {
  return context.map.lookup(
    table,
    rows.map((row) => row[column] as string | number | null),
  );
}

export const mappedOf = (found: Map<string, Mapped>, value: unknown): Mapped | undefined =>
  value === null || value === undefined ? undefined : found.get(String(value));
