import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { ADMIN, animationsEnded, api, expect, login, test, uniqueStamp, WCAG_TAGS } from './fixtures';

/**
 * Accessibility (WCAG 2.1 A and AA): axe finds no violation on any page of the
 * app, at desktop and phone width, light and dark; every page has one main
 * landmark, one h1 and no skipped heading level; and the service desk works by
 * keyboard alone: the skip link, the ticket flow (open a pending ticket, accept,
 * reply, close), focus after the close, and the live region that announces a
 * customer's new message.
 */

/** Pages whose screenshots a run keeps (with the open conversation), to look at what was checked. */
const SHOTS = new Set(['/', '/tickets', '/schedules', '/chats']);
const SHOTS_DIR = path.join(import.meta.dirname, 'artifacts/screenshots');

interface Seed {
  token: string;
  connectionId: number;
  /** A ticket with a conversation (the customer's message and the agent's reply). */
  ticketUuid: string;
  contactListId: number;
  campaignId: number;
  chatId: string;
}

async function loginToken(baseURL: string): Promise<{ token: string; userId: number }> {
  const response = await fetch(`${baseURL}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  if (!response.ok) throw new Error(`login failed: ${response.status}`);
  const body = (await response.json()) as { token: string; user: { id: number } };
  return { token: body.token, userId: body.user.id };
}

/** A customer writes from the sandbox phone: the ticket it lands on. */
async function customerWrites(baseURL: string, token: string, connectionId: number, from: string, name: string, text: string): Promise<{ id: number; uuid: string }> {
  const result = await api<{ ticketId: number }>(baseURL, token, 'POST', `/sandbox/${connectionId}/inbound`, { from, name, body: text });
  return api<{ id: number; uuid: string }>(baseURL, token, 'GET', `/tickets/${result.ticketId}`);
}

let seeded: Promise<Seed> | null = null;

/** What the pages show (made once for every width and theme). */
function seed(baseURL: string): Promise<Seed> {
  seeded ??= (async () => {
    const { token, userId } = await loginToken(baseURL);
    const stamp = uniqueStamp();
    const connection = await api<{ id: number }>(baseURL, token, 'POST', '/whatsapp', { name: `Acessível ${stamp.text}`, provider: 'sandbox' });
    const ticket = await customerWrites(baseURL, token, connection.id, `55319${stamp.digits}`, 'Clara Acessível', 'Bom dia, meu pedido ainda não chegou.');
    await api(baseURL, token, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId });
    await api(baseURL, token, 'POST', `/messages/${ticket.id}`, { body: 'Bom dia, Clara! Vou verificar agora.' });
    const list = await api<{ id: number }>(baseURL, token, 'POST', '/contact-lists', { name: `Lista ${stamp.text}` });
    const campaign = await api<{ id: number }>(baseURL, token, 'POST', '/campaigns', { name: `Campanha ${stamp.text}`, message1: 'Olá {nome}', contactListId: list.id, whatsappId: connection.id });
    const colleague = { name: `Colega ${stamp.text}`, email: `colega-${stamp.text}@example.com`, password: 'Colega123', profile: 'user' };
    const user = await api<{ id: number }>(baseURL, token, 'POST', '/users', colleague);
    const chat = await api<{ id: number; uuid?: string }>(baseURL, token, 'POST', '/chats', { title: `Plantão ${stamp.text}`, users: [user.id] });
    return { token, connectionId: connection.id, ticketUuid: ticket.uuid, contactListId: list.id, campaignId: campaign.id, chatId: String(chat.uuid ?? chat.id) };
  })();
  return seeded;
}

/**
 * Every page of apps/web/src/app/routes.tsx, each with what says its data has come when its
 * h1 alone does not (the page's heading shows before its list).
 */
function privatePages(data: Seed): [url: string, ready?: string][] {
  return [
    [`/tickets/${data.ticketUuid}`, 'message-item'],
    ['/tickets', 'ticket-item'],
    ['/', 'dashboard-attendant'],
    ['/contacts', 'contacts-count'],
    ['/quick-messages'],
    ['/schedules', 'schedules-calendar'],
    ['/campaigns', 'campaign-row'],
    [`/campaign/${data.campaignId}/report`, 'campaign-progress'],
    ['/contact-lists', 'contact-list-row'],
    [`/contact-lists/${data.contactListId}/contacts`, 'contact-list-items-title'],
    ['/campaigns-config', 'campaign-settings-save'],
    ['/files'],
    ['/tags'],
    ['/kanban'],
    ['/chats', 'chat-list-item'],
    [`/chats/${data.chatId}`, 'chat-list-item'],
    ['/announcements'],
    ['/connections'],
    ['/queues'],
    ['/users', 'user-row'],
    ['/settings'],
    ['/settings?tab=api', 'api-keys-tab'],
    ['/settings?tab=webhooks', 'webhooks-tab'],
    ['/financeiro'],
    ['/subscription'],
    ['/helps'],
    ['/messages-api', 'messages-api-page'],
    ['/prompts'],
    ['/queue-integration'],
    ['/todolist', 'todo-submit'],
    [`/phone/${data.connectionId}`],
    ['/no-such-page'],
  ];
}

const PUBLIC_PAGES: [url: string, ready?: string][] = [['/login', 'login-submit'], ['/signup'], ['/forgetpsw']];

/**
 * axe's WCAG 2.1 A/AA violations of the page as it is now, one line each. `mainOnly` checks
 * the page's <main> alone: the top bar and the menu, the same on every page, are checked
 * whole once per width and theme, which keeps the run short.
 */
async function axeViolations(page: Page, url: string, mainOnly = false): Promise<string[]> {
  const builder = new AxeBuilder({ page }).withTags(WCAG_TAGS).options({ resultTypes: ['violations'] });
  const results = await (mainOnly ? builder.include('main') : builder).analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${url}: ${violation.id} (${violation.impact ?? ''}) at ${node.target.join(' ')}: ${node.failureSummary?.replace(/\s+/g, ' ') ?? ''}`),
  );
}

/** One main landmark, one h1, no heading level skipped, and the page's language on <html>. */
async function structureProblems(page: Page, url: string): Promise<string[]> {
  const found = await page.evaluate(() => {
    const visible = (element: Element) => (element as HTMLElement).offsetParent !== null || getComputedStyle(element).position === 'fixed';
    const headings = Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6')).filter(visible).map((h) => ({ level: Number(h.tagName[1]), text: h.textContent ?? '' }));
    return {
      mains: document.querySelectorAll('main, [role="main"]').length,
      h1: headings.filter((heading) => heading.level === 1).length,
      headings,
      lang: document.documentElement.lang,
    };
  });
  const problems: string[] = [];
  if (found.mains !== 1) problems.push(`${url}: ${found.mains} main landmarks`);
  if (found.h1 !== 1) problems.push(`${url}: ${found.h1} h1 headings`);
  found.headings.forEach(({ level, text }, index) => {
    const before = index === 0 ? 0 : (found.headings[index - 1]?.level ?? 0);
    if (level > before + 1) problems.push(`${url}: heading h${level} "${text}" after h${before}`);
  });
  if (!/^(pt|en|es)$/.test(found.lang)) problems.push(`${url}: html lang "${found.lang}"`);
  return problems;
}

/**
 * Goes to a page inside the app, as its links do (a full load of some paths, /helps or
 * /users, reaches the API of the same name).
 */
async function visit(page: Page, url: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, url);
  await expect(page).toHaveURL(new RegExp(`${url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`));
}

async function settle(page: Page, ready?: string): Promise<void> {
  await expect(page.locator('main h1').first()).toBeAttached();
  if (ready) await expect(page.getByTestId(ready).first()).toBeVisible();
  await expect(page.getByRole('status', { name: /carregando|loading|cargando/i })).toHaveCount(0);
  // A page's later requests (the dashboard's charts) show skeletons until they answer; an in-app
  // visit's networkidle has long been reached, so it does not wait for them.
  await expect(page.locator('main .MuiSkeleton-root')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  // Colours still fading (a button just enabled when its data arrived) are checked as they end, not midway.
  await animationsEnded(page);
}

const VIEWPORTS = [
  ['desktop', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;

for (const [size, viewport] of VIEWPORTS) {
  for (const theme of ['light', 'dark'] as const) {
    test.describe(`accessibility at ${size} width, ${theme}`, () => {
      test.use({ viewport, colorScheme: theme });

      test(`axe: no WCAG 2.1 A/AA violation on any page (${viewport.width} px, ${theme})`, async ({ page, baseURL }) => {
        // About a minute on an idle machine; axe's colour checks slow down a lot on a busy one.
        test.setTimeout(600_000);
        const data = await seed(baseURL ?? '');
        // Portuguese, the product's default, and the language <html lang> must then say.
        await page.addInitScript(() => {
          if (!localStorage.getItem('i18nextLng')) localStorage.setItem('i18nextLng', 'pt');
        });
        const problems: string[] = [];
        const check = async (url: string, ready: string | undefined, mainOnly: boolean) => {
          await settle(page, ready);
          problems.push(...(await axeViolations(page, url, mainOnly)), ...(await structureProblems(page, url)));
        };
        for (const [url, ready] of PUBLIC_PAGES) {
          await page.goto(url);
          await check(url, ready, false);
        }
        await login(page);
        await expect(page.getByTestId('greeting')).toContainText('Olá Admin');
        expect(await page.evaluate(() => document.documentElement.lang)).toBe('pt');
        for (const [index, [url, ready]] of privatePages(data).entries()) {
          await visit(page, url);
          await check(url, ready, index > 0);
          if (SHOTS.has(url) || index === 0) await page.screenshot({ path: path.join(SHOTS_DIR, `a11y-${url === '/' ? 'dashboard' : index === 0 ? 'conversation' : url.slice(1)}-${viewport.width}-${theme}.png`) });
        }
        if (viewport.width < 900) {
          // The phone's menu is a drawer: checked open.
          await page.getByRole('button', { name: 'Abrir menu' }).click();
          await expect(page.getByTestId('menu-tickets')).toBeVisible();
          problems.push(...(await axeViolations(page, 'menu drawer')));
          await page.keyboard.press('Escape');
        }
        expect(problems).toEqual([]);
      });
    });
  }
}

/** Presses `key` until `target` has focus; answers how many presses it took (fails past `most`). */
async function pressUntilFocused(page: Page, key: string, target: ReturnType<Page['getByTestId']>, most: number): Promise<number> {
  for (let presses = 1; presses <= most; presses++) {
    await page.keyboard.press(key);
    if (await target.evaluate((element) => element === document.activeElement || element.contains(document.activeElement))) return presses;
  }
  throw new Error(`not focused after ${most} presses of ${key}`);
}

test.describe('keyboard only', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('the skip link reaches the content; a pending ticket is accepted, answered and closed by keyboard; focus lands on the list; a new message is announced', async ({ page, baseURL }) => {
    test.setTimeout(90_000);
    const base = baseURL ?? '';
    const data = await seed(base);
    const stamp = uniqueStamp();
    const customer = `Teclado ${stamp.text}`;
    await customerWrites(base, data.token, data.connectionId, `55319${stamp.digits.slice(0, 7)}7`, customer, 'Preciso de ajuda pelo teclado');
    await page.addInitScript(() => {
      if (!localStorage.getItem('i18nextLng')) localStorage.setItem('i18nextLng', 'pt');
    });
    await login(page);
    await expect(page.getByTestId('tickets-manager')).toBeVisible();

    // The first Tab shows the skip link; Enter puts focus on the page's heading, past the top bar and the menu.
    await page.locator('body').focus();
    await page.keyboard.press('Tab');
    const skip = page.getByTestId('skip-link');
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.locator('main h1')).toBeFocused();

    // From there the Waiting tab is a few Tabs away (it was 22 from the top of the page).
    await pressUntilFocused(page, 'Tab', page.getByTestId('subtab-open'), 8);
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('subtab-pending')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('subtab-pending')).toHaveAttribute('aria-selected', 'true');

    // Accept the customer's ticket: the conversation opens with the text box focused.
    const row = page.getByTestId('ticket-item').filter({ hasText: customer });
    await pressUntilFocused(page, 'Tab', row.getByTestId('ticket-accept'), 60);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
    const input = page.getByTestId('composer-input');
    await expect(input).toBeFocused();

    // Reply with Enter.
    await page.keyboard.type('Claro! Estou verificando.');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('message-item').filter({ hasText: 'Estou verificando' })).toBeVisible();

    // Close it from the header; focus goes to the selected tab of the list, not to the page's body.
    await pressUntilFocused(page, 'Shift+Tab', page.getByTestId('ticket-resolve-button'), 30);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/tickets\/?$/);
    const focused = page.locator('[data-ticket-tabs] [role="tab"][aria-selected="true"]').last();
    await expect(focused).toBeFocused();
    await expect(focused).toBeInViewport();

    // A customer's new message is read out by the polite live region.
    const other = `Aviso ${stamp.text}`;
    await customerWrites(base, data.token, data.connectionId, `55319${stamp.digits.slice(0, 7)}8`, other, 'Alguém pode me atender?');
    const region = page.getByTestId('live-region');
    await expect(region).toHaveAttribute('aria-live', 'polite');
    await expect(region).toContainText(other);
    await expect(region).toContainText('Alguém pode me atender?');
  });
});
