/** The id of the layout's <main>: the skip link's target. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * Puts keyboard focus on the page's content, its h1 when it has one: the skip link, and
 * after an action that removed what had focus (a closed ticket's conversation).
 */
export function focusMainContent(): void {
  const main = document.getElementById(MAIN_CONTENT_ID);
  const heading = main?.querySelector<HTMLElement>('h1');
  const target = heading ?? main;
  if (!target) return;
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus();
}
