import { ADMIN, apiLogin, axeViolations, expect, expectNoSideScroll, login, test } from './fixtures';

test.describe('app shell', () => {
  test('logs in, lands on /tickets, switches language and theme, keeps both after reload, logs out', async ({ page }) => {
    await page.addInitScript(() => {
      if (!localStorage.getItem('i18nextLng')) localStorage.setItem('i18nextLng', 'en');
    });
    await login(page);
    await expect(page.getByTestId('greeting')).toContainText('Hello Admin');
    await expect(page.getByTestId('menu-tickets')).toHaveText('Tickets');

    await page.getByTestId('language-button').click();
    await page.getByTestId('language-pt').click();
    await expect(page.getByTestId('menu-tickets')).toHaveText('Atendimentos');
    await expect(page.getByTestId('greeting')).toContainText('Olá Admin');

    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const before = await background();
    await page.getByTestId('theme-toggle').click();
    await expect.poll(background).not.toBe(before);
    const toggled = await background();

    await page.reload();
    await expect(page.getByTestId('menu-tickets')).toHaveText('Atendimentos');
    expect(await background()).toBe(toggled);

    await page.getByTestId('profile-button').click();
    await page.getByTestId('logout').click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/tickets');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('on a 390 px phone every top bar control is on screen and the language is picked from the profile menu', async ({ page }) => {
    await page.addInitScript(() => {
      if (!localStorage.getItem('i18nextLng')) localStorage.setItem('i18nextLng', 'en');
    });
    await page.setViewportSize({ width: 390, height: 844 });
    await login(page);
    for (const id of ['theme-toggle', 'announcements-button', 'chats-button', 'notifications-button', 'profile-button']) {
      const box = await page.getByTestId(id).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390, id).toBe(true);
    }
    await expect(page.getByTestId('language-button')).toBeHidden();
    await expectNoSideScroll(page, 390);

    await page.getByTestId('profile-button').click();
    await page.getByTestId('profile-language').click();
    await page.getByTestId('language-es').click();
    await expect(page.getByTestId('greeting')).toContainText('Hola Admin');
    await page.getByTestId('announcements-button').click();
    await expect(page.getByTestId('announcements-popover')).toBeVisible();
    // Back to English for the tests that follow on this user.
    await page.keyboard.press('Escape');
    await page.getByTestId('profile-button').click();
    await page.getByTestId('profile-language').click();
    await page.getByTestId('language-en').click();
    await expect(page.getByTestId('greeting')).toContainText('Hello Admin');
  });

  test('a user without the admin profile does not see the admin group', async ({ page, baseURL }) => {
    const token = await apiLogin(baseURL ?? '');
    const email = `agent-${Date.now()}@example.com`;
    const created = await fetch(`${baseURL}/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'Agent E2E', email, password: 'Agent123', profile: 'user' }),
    });
    expect(created.status).toBe(201);
    await login(page, email, 'Agent123');
    await expect(page.getByTestId('menu-tickets')).toBeVisible();
    await expect(page.getByTestId('menu-group-admin')).toHaveCount(0);
    await expect(page.getByTestId('menu-dashboard')).toHaveCount(0);
  });

  test.describe('with expected HTTP errors', () => {
    test.use({ expectedHttpErrors: [401, 402, 'net::ERR_CONNECTION_REFUSED', 'net::ERR_FAILED'] });

  test('an expired session sends the user to /login', async ({ page }) => {
    await login(page);
    await page.evaluate(() => localStorage.setItem('token', 'expired.invalid.token'));
    await page.reload();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('an unreachable server shows a clear message, not a blank page', async ({ page }) => {
    await page.route('**/auth/login', (route) => route.abort('connectionrefused'));
    await page.goto('/login');
    await page.getByTestId('login-email').fill(ADMIN.email);
    await page.getByTestId('login-password').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('login-error')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a company whose subscription ended cannot log in and is told when it ended', async ({ page, baseURL }) => {
    const token = await apiLogin(baseURL ?? '');
    const email = `owner-${Date.now()}@example.com`;
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    const plans = (await (await fetch(`${baseURL}/plans/list`)).json()) as { id: number }[];
    const created = await fetch(`${baseURL}/companies`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Expired Co', email, password: 'Owner123', planId: plans[0]?.id, dueDate: '2020-01-15T12:00:00Z' }),
    });
    expect(created.status).toBe(201);
    await page.goto('/login');
    await page.getByTestId('login-email').fill(email);
    await page.getByTestId('login-password').fill('Owner123');
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('login-error')).toContainText('15/01/2020');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a wrong password shows a clear message and stays on the login page', async ({ page }) => {
    await page.goto('/login');
    await page.getByTestId('login-email').fill(ADMIN.email);
    await page.getByTestId('login-password').fill('wrong-password');
    await page.getByTestId('login-submit').click();
    await expect(page.locator('[data-toast]')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a page whose code cannot be downloaded (a new version deployed, the network gone) says so, the menu still works, and Reload brings the page', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('i18nextLng', 'en'));
    await login(page);
    // The help page's chunk fails as it does when a deploy has replaced the files the open tab knows.
    let blocked = true;
    await page.route(/\/assets\/helps-page-[^/]+\.js$/, (route) => (blocked ? route.abort('failed') : route.continue()));
    await page.getByTestId('menu-helps').click();
    const failed = page.getByTestId('page-error');
    await expect(failed).toContainText('This page could not be loaded');
    await expect(failed).toContainText('A new version of Atende may have been published');
    // The frame is still there: another page opens from the menu, and the message goes.
    await expect(page.getByTestId('greeting')).toBeVisible();
    await page.getByTestId('menu-tickets').click();
    await expect(page.getByTestId('subtab-pending')).toBeVisible();
    await expect(failed).toHaveCount(0);

    await page.getByTestId('menu-helps').click();
    await expect(failed).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    for (const [width, height] of [[1440, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height });
      await expectNoSideScroll(page, width);
      await expect(failed.getByRole('button', { name: 'Reload' })).toBeInViewport();
      await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS_DIR ?? 'e2e/artifacts'}/page-error-${width}.png` });
    }
    blocked = false;
    await failed.getByRole('button', { name: 'Reload' }).click();
    await expect(page).toHaveURL(/\/helps$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(failed).toHaveCount(0);
  });
  });

  test('the local task list adds, edits and deletes, ignoring blanks', async ({ page }) => {
    await login(page);
    await page.goto('/todolist');
    await page.getByTestId('todo-input').fill('   ');
    await page.getByTestId('todo-submit').click();
    await expect(page.getByTestId('todo-item')).toHaveCount(0);
    await page.getByTestId('todo-input').fill('Ligar para a Maria');
    await page.getByTestId('todo-submit').click();
    await expect(page.getByTestId('todo-item')).toHaveCount(1);
    await expect(page.getByText('Ligar para a Maria')).toBeVisible();
    await page.reload();
    await expect(page.getByText('Ligar para a Maria')).toBeVisible();

    await page.getByTestId('todo-edit').click();
    await page.getByTestId('todo-input').fill('Ligar para a Maria amanhã');
    await page.getByTestId('todo-submit').click();
    await expect(page.getByTestId('todo-item')).toHaveCount(1);
    await expect(page.getByText('Ligar para a Maria amanhã')).toBeVisible();

    await page.getByTestId('todo-delete').click();
    await expect(page.getByTestId('todo-item')).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('todo-item')).toHaveCount(0);
  });

  for (const width of [375, 1440]) {
    test(`screenshots of login and the shell at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/login');
      await expect(page.getByTestId('login-submit')).toBeVisible();
      await page.screenshot({ path: `e2e/artifacts/login-${width}.png`, fullPage: true });
      await login(page);
      await expect(page.getByTestId('greeting')).toBeVisible();
      await page.screenshot({ path: `e2e/artifacts/shell-${width}.png`, fullPage: true });
    });
  }
});
