import type { Locator, Page } from '@playwright/test';
import { apiLogin, expect, login, test } from './fixtures';

/**
 * Automation end to end (spec part 2 §2.3, §2.12): queues made on the queues
 * page, a two-level chatbot option tree built in the option editor, a customer
 * walking that menu on the sandbox phone; a prompt made in its dialog; and the
 * prompts page refusing a company whose plan has no AI.
 *
 * Texts are matched in Portuguese (the spec's own wording), so the browser runs in pt-BR.
 */

test.use({ locale: 'pt-BR' });

/** Calls the test makes itself go straight to the API (in CI the API serves the web app too). */
const apiUrl = (baseURL: string | undefined) => process.env.E2E_API_URL ?? baseURL ?? '';

async function api<T>(base: string, token: string, method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Sets a company setting and answers the value it had, to put it back afterwards. */
async function setSetting(base: string, token: string, key: string, value: string): Promise<string> {
  const settings = await api<{ key: string; value: string }[]>(base, token, 'GET', '/settings');
  const before = settings.find((setting) => setting.key === key)?.value ?? 'disabled';
  await api(base, token, 'PUT', `/settings/${key}`, { key, value });
  return before;
}

/** Adds a queue through the queue modal and answers its id. */
async function addQueue(page: Page, name: string, order: number, greeting: string): Promise<number> {
  await page.getByTestId('queue-add').click();
  const modal = page.getByTestId('queue-modal');
  await expect(modal).toBeVisible();
  await modal.getByTestId('queue-name').fill(name);
  await modal.getByTestId('queue-order').fill(String(order));
  // Its label is shown whole ("Ordem da fila (bot)" was once cut by the field's width).
  const orderLabel = modal.locator('label', { hasText: 'Ordem da fila' });
  expect(await orderLabel.evaluate((label) => label.scrollWidth <= label.clientWidth)).toBe(true);
  await modal.getByTestId('queue-greetingMessage').fill(greeting);
  await modal.getByTestId('queue-save').click();
  // A new queue stays open on its chatbot tab after the first save.
  await expect(modal.getByTestId('queue-options-editor')).toBeVisible();
  await modal.getByTestId('queue-cancel').click();
  await expect(modal).toHaveCount(0);
  const row = page.getByTestId('queue-row').filter({ hasText: name });
  await expect(row).toBeVisible();
  return Number(await row.getAttribute('data-queue-id'));
}

/** Adds an option in the option dialog (a root, or a child of `parent`). */
async function addOption(page: Page, editor: Locator, parent: Locator | null, title: string, message: string): Promise<void> {
  await (parent ? parent.getByTestId('queue-option-add-child') : editor.getByTestId('queue-option-add-root')).click();
  const dialog = page.getByTestId('queue-option-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('queue-option-title').fill(title);
  await dialog.getByTestId('queue-option-message').fill(message);
  await dialog.getByTestId('queue-option-save').click();
  await expect(dialog).toHaveCount(0);
}

/** The customer sends a text; `sent` is how many messages the customer has sent by then. */
async function customerSays(phone: Page, text: string, sent: number): Promise<void> {
  await phone.getByTestId('phone-input').fill(text);
  await phone.getByTestId('phone-send').click();
  await expect(phone.locator('[data-testid="phone-message"][data-from-customer="true"]')).toHaveCount(sent);
}

/** One admin token for the file: logins are rate-limited per email (10 per 15 minutes). */
let adminToken = '';
test.beforeAll(async ({ baseURL }) => {
  adminToken = await apiLogin(apiUrl(baseURL));
});

const botMessage = (phone: Page, text: string) => phone.locator('[data-testid="phone-message"][data-from-customer="false"]').filter({ hasText: text });

test('automation: queues and a two-level option tree made in the UI drive the chatbot on the sandbox phone; a prompt is made in its dialog', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const base = apiUrl(baseURL);
  const token = adminToken;
  const stamp = Date.now().toString(36);
  // Business hours would answer "out of hours" at night: the chatbot is tested without them.
  const scheduleTypeBefore = await setSetting(base, token, 'scheduleType', 'disabled');
  try {
    const connection = await api<{ id: number }>(base, token, 'POST', '/whatsapp', { name: `Bot ${stamp}`, provider: 'sandbox' });

    await login(page);
    await page.goto('/queues');
    const billingName = `Financeiro ${stamp}`;
    const salesName = `Vendas ${stamp}`;
    const billing = await addQueue(page, billingName, 1, 'Você está no Financeiro.');
    const sales = await addQueue(page, salesName, 2, 'Você está em Vendas.');
    await api(base, token, 'PUT', `/whatsapp/${connection.id}`, { queueIds: [billing, sales], greetingMessage: 'Olá! Escolha o setor:' });

    // The option tree of the billing queue: a root option with a child.
    await page.getByTestId('queue-row').filter({ hasText: billingName }).getByTestId('queue-edit').click();
    const modal = page.getByTestId('queue-modal');
    await modal.getByTestId('queue-tab-options').click();
    const editor = modal.getByTestId('queue-options-editor');
    await expect(editor.getByTestId('queue-options-empty')).toBeVisible();
    await addOption(page, editor, null, 'Segunda via de boleto', 'Qual boleto você precisa?');
    const root = editor.locator('[data-testid="queue-option-node"][data-option-path="1"]');
    await expect(root).toContainText('Segunda via de boleto');
    await addOption(page, editor, root, 'Boleto vencido', 'Enviamos a segunda via atualizada do boleto vencido para o seu e-mail.');
    const child = editor.locator('[data-testid="queue-option-node"][data-option-path="1.1"]');
    await expect(child).toContainText('Boleto vencido');
    await modal.getByTestId('queue-cancel').click();
    await expect(modal).toHaveCount(0);

    // The attendance-hours tab follows the scheduleType setting, live.
    await setSetting(base, token, 'scheduleType', 'queue');
    await page.getByTestId('queue-row').filter({ hasText: salesName }).getByTestId('queue-edit').click();
    await expect(modal.getByTestId('queue-tab-hours')).toBeVisible();
    await modal.getByTestId('queue-cancel').click();
    await setSetting(base, token, 'scheduleType', 'disabled');
    await page.getByTestId('queue-row').filter({ hasText: salesName }).getByTestId('queue-edit').click();
    await expect(modal.getByTestId('queue-tab-options')).toBeVisible();
    await expect(modal.getByTestId('queue-tab-hours')).toHaveCount(0);
    await modal.getByTestId('queue-cancel').click();

    // A customer walks the menu on the sandbox phone.
    const number = `55119${String(Date.now()).slice(-8)}`;
    await page.goto(`/phone/${connection.id}?number=${number}&name=Cliente%20Bot`);
    await customerSays(page, 'Oi, preciso de ajuda', 1);
    const menu = botMessage(page, 'Olá! Escolha o setor:');
    await expect(menu).toContainText(billingName);
    await expect(menu).toContainText(salesName);

    await customerSays(page, '1', 2);
    const level1 = botMessage(page, 'Segunda via de boleto');
    await expect(level1).toContainText('Você está no Financeiro.');

    await customerSays(page, '1', 3);
    const level2 = botMessage(page, 'Boleto vencido');
    await expect(level2).toContainText('Qual boleto você precisa?');

    await customerSays(page, '1', 4);
    await expect(botMessage(page, 'Enviamos a segunda via atualizada do boleto vencido para o seu e-mail.')).toBeVisible();

    // A prompt: refused without a sector, saved with one, its key shown back masked, deleted.
    await page.goto('/prompts');
    await page.getByTestId('prompt-add').click();
    const dialog = page.getByTestId('prompt-dialog');
    await dialog.getByTestId('prompt-name').fill(`Assistente ${stamp}`);
    await dialog.getByTestId('prompt-prompt').fill('Você é o assistente do Financeiro. Responda com cordialidade e em poucas frases.');
    const apiKey = `sk-test-${stamp}-0123456789`;
    await dialog.getByTestId('prompt-apiKey').fill(apiKey);
    await dialog.getByTestId('prompt-save').click();
    await expect(page.getByText('Informe o setor do prompt.').first()).toBeVisible();
    await expect(dialog).toBeVisible();
    await expect(page.getByTestId('prompt-row')).toHaveCount(0);
    await dialog.getByTestId('prompt-queue').click();
    await page.getByTestId(`prompt-queue-${billing}`).click();
    await dialog.getByTestId('prompt-save').click();
    await expect(dialog).toHaveCount(0);
    const row = page.getByTestId('prompt-row').filter({ hasText: `Assistente ${stamp}` });
    await expect(row).toContainText(billingName);
    await expect(row).toContainText('100');

    await row.getByTestId('prompt-edit').click();
    const shownKey = await dialog.getByTestId('prompt-apiKey').inputValue();
    expect(shownKey).not.toBe(apiKey);
    expect(shownKey).toContain('••••');
    await dialog.getByTestId('prompt-cancel').click();

    await row.getByTestId('prompt-delete').click();
    await page.getByTestId('confirm-ok').click();
    await expect(row).toHaveCount(0);
  } finally {
    await setSetting(base, token, 'scheduleType', scheduleTypeBefore);
  }
});

test('prompts page: a company whose plan has no AI is told so and sent to /', async ({ page, baseURL }) => {
  const base = apiUrl(baseURL);
  const token = adminToken;
  const stamp = Date.now().toString(36);
  // Its own plan and company, so switching AI off touches no other test.
  const plan = await api<{ id: number }>(base, token, 'POST', '/plans', { name: `Sem IA ${stamp}`, users: 5, connections: 5, queues: 5 });
  await api(base, token, 'PUT', `/plans/${plan.id}`, { useOpenAi: false });
  const user = { email: `sem-ia-${stamp}@example.com`, password: 'SemIa123' };
  await api(base, token, 'POST', '/companies', { name: `Empresa sem IA ${stamp}`, planId: plan.id, ...user });

  await login(page, user.email, user.password);
  await page.goto('/prompts');
  await expect(page.getByText('Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.')).toBeVisible();
  await expect(page).toHaveURL(new URL('/', page.url()).href);
  await expect(page.getByTestId('prompt-add')).toHaveCount(0);
});
