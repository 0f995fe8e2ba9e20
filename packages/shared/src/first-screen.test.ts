import { describe, expect, it } from 'vitest';
import { firstScreenParts, pageParts, preloadHint, readPreloadHint } from './first-screen.js';

describe('firstScreenParts', () => {
  it('loads a public page only without a session, and only the frame of a signed-in screen', () => {
    expect(firstScreenParts('/login', false)).toEqual(['login']);
    expect(firstScreenParts('/login', true)).toEqual([]);
    expect(firstScreenParts('/tickets', false)).toEqual(['login']);
    expect(firstScreenParts('/', true)).toEqual(['appLayout']);
    expect(firstScreenParts('/tickets', true)).toEqual(['appLayout']);
    expect(firstScreenParts('/tickets/6f1c', true)).toEqual(['appLayout']);
    expect(firstScreenParts('/contacts', true)).toEqual(['appLayout']);
  });

  it('leaves a signed-in page’s own parts for after the frame', () => {
    expect(pageParts('/')).toEqual(['dashboard']);
    expect(pageParts('/tickets')).toEqual(['tickets']);
    expect(pageParts('/tickets/6f1c')).toEqual(['tickets', 'conversation']);
    expect(pageParts('/contacts')).toEqual([]);
  });

  it('reads back the hint it writes, and nothing from a foreign one', () => {
    expect(readPreloadHint(preloadHint('es', true))).toEqual({ language: 'es', signedIn: true });
    expect(readPreloadHint(preloadHint('pt', false))).toEqual({ language: 'pt', signedIn: false });
    expect(readPreloadHint('fr.session')).toEqual({ language: null, signedIn: true });
    expect(readPreloadHint(undefined)).toEqual({ language: null, signedIn: false });
  });
});
