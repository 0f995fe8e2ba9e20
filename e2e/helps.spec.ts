import type { Page } from '@playwright/test';
import { api, apiLogin, expect, expectNoSideScroll, login, test, uniqueStamp } from './fixtures';

/**
 * Help videos (issue 18, spec part 2 §2.15 Helps tab, §2.16 help page): the super
 * user adds a video in Settings → Helps; the help page shows its card; a click
 * opens YouTube's no-cookie player in a dialog and Escape closes it.
 *
 * There is no internet here, and a test must not depend on it: YouTube's
 * thumbnail host answers as if offline (the card falls back to its local
 * placeholder), and the player's host is answered with a stand-in page, so the
 * test checks the frame's address, not YouTube's content. The app's CSP is the
 * real one: a thumbnail or frame it refused would fail the test.
 */

// The thumbnail request fails as it would offline; the browser logs that failure.
test.use({ expectedHttpErrors: ['net::ERR_INTERNET_DISCONNECTED'] });

async function offlineYouTube(page: Page): Promise<{ frames: string[] }> {
  const frames: string[] = [];
  await page.route('https://i.ytimg.com/**', (route) => route.abort('internetdisconnected'));
  await page.route('https://www.youtube-nocookie.com/**', (route) => {
    frames.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>player</title><p>stand-in player</p>' });
  });
  return { frames };
}

test('the super user adds a help video in Settings; the help page shows it and plays it in a dialog that Escape closes', async ({ page, baseURL }) => {
  test.setTimeout(60_000);
  const youtube = await offlineYouTube(page);
  const stamp = uniqueStamp();
  const title = `Primeiros passos ${stamp.text}`;
  const video = `vid_${stamp.text}`;

  await login(page);
  await page.goto('/settings?tab=helps');
  await page.getByTestId('help-add').click();
  const dialog = page.getByTestId('help-dialog');
  await dialog.getByTestId('help-title').fill(title);
  await dialog.getByTestId('help-video').fill(video);
  await dialog.getByTestId('help-description').fill('Como atender o primeiro cliente');
  await dialog.getByTestId('help-save').click();
  await expect(dialog).toHaveCount(0);
  const row = page.locator(`[data-testid="help-row"][data-help-title="${title}"]`);
  await expect(row).toBeVisible();
  const id = await row.getAttribute('data-help-id');

  await page.goto('/helps');
  const card = page.locator(`[data-testid="help-card"][data-help-id="${id}"]`);
  await expect(card.getByTestId('help-card-title')).toHaveText(title);
  await expect(card.getByText('Como atender o primeiro cliente')).toBeVisible();
  // Offline: the local placeholder, not a broken image.
  await expect(card.getByTestId('help-thumbnail-placeholder')).toBeVisible();
  await expect(card.locator('img')).toHaveCount(0);
  // No player before a click.
  await expect(page.locator('iframe')).toHaveCount(0);
  expect(youtube.frames).toEqual([]);

  await card.getByRole('button').click();
  const player = page.getByTestId('help-player');
  await expect(player).toBeVisible();
  const frame = player.getByTestId('help-player-frame');
  await expect(frame).toHaveAttribute('src', `https://www.youtube-nocookie.com/embed/${video}?autoplay=1&rel=0`);
  // The frame loaded (the CSP let it), from the stand-in.
  await expect(page.frameLocator('[data-testid="help-player-frame"]').getByText('stand-in player')).toBeVisible();
  expect(youtube.frames).toEqual([`https://www.youtube-nocookie.com/embed/${video}?autoplay=1&rel=0`]);

  await page.keyboard.press('Escape');
  await expect(player).toHaveCount(0);
  await expect(page.locator('iframe')).toHaveCount(0);

  // Back in Settings, the video is deleted after confirmation and leaves the page.
  await page.goto('/settings?tab=helps');
  await row.getByTestId('help-delete').click();
  await page.getByRole('dialog').getByRole('button').last().click();
  await expect(row).toHaveCount(0);
  const token = await apiLogin(baseURL ?? '');
  const left = await api<{ id: number }[]>(baseURL ?? '', token, 'GET', '/helps/list');
  expect(left.map((help) => String(help.id))).not.toContain(id);
});

test.describe('on a phone, in dark mode, in Portuguese', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('help page: the cards and the player stay on screen at 390 px', async ({ page, baseURL }) => {
    await offlineYouTube(page);
    const base = baseURL ?? '';
    const token = await apiLogin(base);
    const stamp = uniqueStamp();
    const help = await api<{ id: number }>(base, token, 'POST', '/helps', { title: `Conexões ${stamp.text} com um título bem comprido que quebra a linha`, video: `tel_${stamp.text}`, description: 'Como ler o QR code' });
    await page.addInitScript(() => {
      // Not in the player's frame (another origin, no storage of ours).
      if (window !== window.top) return;
      localStorage.setItem('i18nextLng', 'pt');
      localStorage.setItem('preferredTheme', 'dark');
    });
    try {
      await login(page);
      await page.goto('/helps');
      await expect(page.getByRole('heading', { name: 'Ajuda' })).toBeVisible();
      const card = page.locator(`[data-testid="help-card"][data-help-id="${help.id}"]`);
      await card.scrollIntoViewIfNeeded();
      const box = await card.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      await expectNoSideScroll(page, 390);
      // Dark mode: the card is drawn on a dark surface.
      const background = await card.evaluate((node) => getComputedStyle(node).backgroundColor);
      const [r = 255, g = 255, b = 255] = (background.match(/\d+/g) ?? []).map(Number);
      expect(r + g + b).toBeLessThan(200);
      if (process.env.E2E_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS_DIR}/helps-phone-dark.png` });

      await card.getByRole('button', { name: /^Assistir: Conexões/ }).click();
      const frame = page.getByTestId('help-player-frame');
      await expect(frame).toBeVisible();
      const frameBox = await frame.boundingBox();
      expect(frameBox!.x).toBeGreaterThanOrEqual(0);
      expect(frameBox!.x + frameBox!.width).toBeLessThanOrEqual(390);
      await page.getByTestId('help-player-close').click();
      await expect(page.getByTestId('help-player')).toHaveCount(0);
    } finally {
      // Without a JSON content type: the request has no body.
      await fetch(`${base}/helps/${help.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    }
  });
});
