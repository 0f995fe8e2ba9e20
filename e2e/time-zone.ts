/** The zone every test browser runs in: the seeded companies' zone (decision 7's default). */
export const BROWSER_TIME_ZONE = 'America/Sao_Paulo';
