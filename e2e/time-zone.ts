/** The zone every test browser runs in: the seeded companies' zone (decision 7's default). */
export const BROWSER_TIME_ZONE = 'America/Sao_Paulo';

/** The seeded companies' zone, in which every date is shown whatever the browser's (DECISIONS 7 and 15). */
export const COMPANY_TIME_ZONE = 'America/Sao_Paulo';

/**
 * A browser zone whose day is not the company's at `now` (Tokyo when it differs,
 * else Kiritimati, UTC+14, else Pago Pago, UTC-11; one of them always does), so a
 * page that used the browser's zone shows another day as well as another time.
 */
export function foreignTimeZone(now = new Date()): string {
  const day = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  return ['Asia/Tokyo', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'].find((zone) => day(zone) !== day(COMPANY_TIME_ZONE)) ?? 'Asia/Tokyo';
}
