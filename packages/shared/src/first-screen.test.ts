import { describe, expect, it } from 'vitest';
import { firstScreenParts, preloadHint, readPreloadHint } from './first-screen.js';

describe('firstScreenParts', () => {
  it('loads a public page only without a session, and the frame with the page of a signed-in screen', () => {
    expect(firstScreenParts('/login', false)).toEqual(['login']);
    expect(firstScreenParts('/login', true)).toEqual([]);
    expect(firstScreenParts('/tickets', false)).toEqual(['login']);
    expect(firstScreenParts('/', true)).toEqual(['appLayout', 'dashboard']);
    expect(firstScreenParts('/tickets', true)).toEqual(['appLayout', 'tickets']);
    expect(firstScreenParts('/tickets/6f1c', true)).toEqual(['appLayout', 'tickets', 'conversation']);
    expect(firstScreenParts('/contacts', true)).toEqual(['appLayout']);
  });

  it('reads back the hint it writes, and nothing from a foreign one', () => {
    expect(readPreloadHint(preloadHint('es', true))).toEqual({ language: 'es', signedIn: true });
    expect(readPreloadHint(preloadHint('pt', false))).toEqual({ language: 'pt', signedIn: false });
    expect(readPreloadHint('fr.session')).toEqual({ language: null, signedIn: true });
    expect(readPreloadHint(undefined)).toEqual({ language: null, signedIn: false });
  });
});
