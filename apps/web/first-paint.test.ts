import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { firstPaintScript, firstPaintTexts } from './first-paint';
import { STORAGE } from './src/api/storage-keys';
import { en } from './src/i18n/en';
import { es } from './src/i18n/es';
import { pt } from './src/i18n/pt';

const ENTRY = '/assets/index-test.js';

/** Runs the first-paint script of index.html on `path`, as the browser does once it has read #root. */
function paintAt(path: string, entry: string | null = null): HTMLElement {
  window.history.pushState({}, '', path);
  const root = document.createElement('div');
  root.id = 'root';
  document.body.append(root);
  const tag = document.createElement('script');
  if (entry) tag.setAttribute('data-entry', entry);
  Object.defineProperty(document, 'currentScript', { value: tag, configurable: true });
  try {
    new Function(firstPaintScript(firstPaintTexts({ pt, en, es })))();
  } finally {
    Reflect.deleteProperty(document, 'currentScript');
  }
  return root;
}

const startedEntry = () => document.head.querySelector(`script[type="module"][src="${ENTRY}"]`);

describe('first paint (index.html before the app has loaded)', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => {
    document.getElementById('root')?.remove();
    startedEntry()?.remove();
    vi.restoreAllMocks();
    window.history.pushState({}, '', '/');
  });

  it('takes the login texts of each language from the catalogues', () => {
    const texts = firstPaintTexts({ pt, en, es });
    expect(texts.pt).toMatchObject({ title: pt.login.title, signup: pt.login.signup, languageName: 'Português' });
    expect(texts.en).toMatchObject({ title: en.login.title, forgot: en.login.forgot, submit: en.login.submit, languageName: 'English' });
    expect(texts.es).toMatchObject({ email: es.login.email, password: es.login.password, languageName: 'Español' });
  });

  it('draws the login card in the stored language on /login without a session', () => {
    localStorage.setItem(STORAGE.language, 'es');
    const root = paintAt('/login');
    expect(root.querySelector('h1')?.textContent).toBe(es.app.name);
    expect(root.querySelector('h2')?.textContent).toBe(es.login.title);
    expect(root.textContent).toContain(es.login.signup);
    expect(root.firstElementChild?.getAttribute('aria-hidden')).toBe('true');
  });

  it('follows the stored dark theme', () => {
    localStorage.setItem(STORAGE.theme, 'dark');
    expect(paintAt('/login').querySelector('.fp')?.classList.contains('fp-dark')).toBe(true);
  });

  it('draws the top bar with the last greeting, as text, on a signed-in page', () => {
    localStorage.setItem(STORAGE.token, 'a-token');
    localStorage.setItem(STORAGE.greeting, 'Olá <b>Ana</b>, bem-vinda à Empresa 1!');
    const root = paintAt('/tickets');
    expect(root.querySelector('.fp-bar p')?.textContent).toBe('Olá <b>Ana</b>, bem-vinda à Empresa 1!');
    expect(root.querySelector('b')).toBeNull();
  });

  it('draws nothing it cannot know: no greeting stored, a session on /login, no session elsewhere', () => {
    localStorage.setItem(STORAGE.token, 'a-token');
    expect(paintAt('/tickets').childElementCount).toBe(0);
    document.getElementById('root')?.remove();
    localStorage.setItem(STORAGE.greeting, 'Hello Admin, welcome to Empresa 1!');
    expect(paintAt('/login').childElementCount).toBe(0);
    document.getElementById('root')?.remove();
    localStorage.clear();
    expect(paintAt('/tickets').childElementCount).toBe(0);
  });

  it('starts the app after the frame that shows the first paint', async () => {
    const frames: FrameRequestCallback[] = [];
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => frames.push(callback));
    paintAt('/login', ENTRY);
    expect(startedEntry()).toBeNull();
    frames.forEach((callback) => callback(0));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(startedEntry()?.getAttribute('crossorigin')).toBe('anonymous');
  });

  it('starts the app at once when it paints nothing', () => {
    localStorage.setItem(STORAGE.token, 'a-token');
    paintAt('/tickets', ENTRY);
    expect(startedEntry()).not.toBeNull();
  });
});
