import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { runBootScript } from '../test/boot-script';
import { buildUser } from '../test/build-user';
import { fakeApi } from '../test/fake-api';
import { prefetchSessionUser, sessionUserSettled, SessionProvider, useSession } from './session';
import { STORAGE } from './storage-keys';

/** What the provider gives its children, on every render: loading, or whose session. */
function SessionShown({ renders }: { renders: string[] }) {
  const { user, loading } = useSession();
  const shown = loading ? 'loading' : (user?.name ?? 'signed out');
  renders.push(shown);
  return <p data-testid="session">{shown}</p>;
}

/** The page's boot with a stored session (boot.js, then main.tsx's prefetch). */
function bootWithStoredSession(): void {
  localStorage.setItem(STORAGE.token, 'stored-token');
  runBootScript();
  prefetchSessionUser();
}

/** Mounts the provider; answers what it showed, render by render. */
function renderSession(): string[] {
  const renders: string[] = [];
  render(
    <SessionProvider onSessionEnd={() => undefined}>
      <SessionShown renders={renders} />
    </SessionProvider>,
  );
  return renders;
}

describe('the stored session at boot', () => {
  it('is in the provider’s first render when its GET /auth/me answered before the app mounted, asked once', async () => {
    const api = fakeApi({ 'GET /auth/me': () => buildUser(7, { name: 'Ana Agente' }) });
    bootWithStoredSession();
    await sessionUserSettled();
    const renders = renderSession();
    expect(renders[0]).toBe('Ana Agente');
    expect(renders).not.toContain('loading');
    expect(api.calls('GET /auth/me')).toHaveLength(1);
  });

  it('is taken when it answers after the app mounted (main.tsx stopped waiting), still asked once', async () => {
    let answer: (value: Response) => void = () => undefined;
    const api = fakeApi({
      'GET /auth/me': () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    bootWithStoredSession();
    const renders = renderSession();
    expect(renders[0]).toBe('loading');
    answer(new Response(JSON.stringify(buildUser(8, { name: 'Bia Agente' })), { status: 200, headers: { 'content-type': 'application/json' } }));
    expect(await screen.findByText('Bia Agente')).toBeTruthy();
    expect(api.calls('GET /auth/me')).toHaveLength(1);
  });
});
