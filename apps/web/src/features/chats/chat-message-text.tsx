import { Box } from '@mui/material';
import type { ReactNode } from 'react';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A chat message's text with its `@name` mentions of members marked; a mention of
 * the reader stands out (the mentioned member sees it highlighted).
 */
export function ChatMessageText({ text, memberNames, myName }: { text: string; memberNames: string[]; myName: string }) {
  const names = [...new Set(memberNames.filter(Boolean))].sort((a, b) => b.length - a.length);
  if (names.length === 0 || !text.includes('@')) return <>{text}</>;
  const pattern = new RegExp(`@(${names.map(escape).join('|')})`, 'giu');
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const index = match.index;
    if (index > last) parts.push(text.slice(last, index));
    const mine = (match[1] ?? '').toLowerCase() === myName.toLowerCase();
    parts.push(
      <Box
        key={index}
        component="mark"
        data-testid={mine ? 'mention-me' : 'mention'}
        sx={{ px: 0.25, borderRadius: 0.5, fontWeight: 600, color: 'inherit', bgcolor: mine ? 'warning.light' : 'action.selected', ...(mine ? { color: 'common.black' } : {}) }}
      >
        {match[0]}
      </Box>,
    );
    last = index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <>{parts}</>;
}
