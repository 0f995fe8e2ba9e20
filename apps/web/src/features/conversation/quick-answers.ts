import type { PresentedQuickMessage } from '@atende/shared';

/** Spec part 1 §9: suggestions need a leading '/' followed by more than 1 character; labels are cut at 35. */
const QUICK_ANSWER_MIN_CHARS = 2;
const QUICK_ANSWER_LABEL_MAX = 35;

/** The shortcode being typed, or null when the input does not ask for quick answers. */
export function quickAnswerTerm(input: string): string | null {
  if (!input.startsWith('/')) return null;
  const term = input.slice(1);
  if (term.length < QUICK_ANSWER_MIN_CHARS || /\s/.test(term)) return null;
  return term.toLowerCase();
}

export function quickAnswerLabel(quick: Pick<PresentedQuickMessage, 'shortcode' | 'message'>): string {
  const label = `${quick.shortcode} - ${quick.message}`;
  return label.length > QUICK_ANSWER_LABEL_MAX ? `${label.slice(0, QUICK_ANSWER_LABEL_MAX)}...` : label;
}

/** Quick messages whose shortcode contains what was typed after '/' (case-insensitive), shortcodes starting with it first. */
export function filterQuickAnswers(input: string, quickMessages: readonly PresentedQuickMessage[]): PresentedQuickMessage[] {
  const term = quickAnswerTerm(input);
  if (term === null) return [];
  const matches = quickMessages.filter((q) => q.shortcode.toLowerCase().includes(term));
  const starts = (q: PresentedQuickMessage) => (q.shortcode.toLowerCase().startsWith(term) ? 0 : 1);
  return matches.sort((a, b) => starts(a) - starts(b) || a.shortcode.localeCompare(b.shortcode));
}

/**
 * A message that is only a `/word`: what an agent types to call a quick answer. Sent
 * as it is only after the agent confirms it (the word may match no quick answer they see).
 */
export function loneShortcut(text: string): string | null {
  const trimmed = text.trim();
  return /^\/[^\s/]+$/.test(trimmed) ? trimmed : null;
}
