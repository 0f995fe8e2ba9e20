import type { ReactNode } from 'react';

/**
 * WhatsApp's text formatting (spec part 1 §2): *bold*, _italic_, ~strike~,
 * ```monospace``` and http(s) links. Parsed into a small tree and rendered as React elements, so a
 * message can never inject markup.
 */
export type FormatNode =
  | { type: 'text'; text: string }
  | { type: 'bold' | 'italic' | 'strike'; children: FormatNode[] }
  | { type: 'link'; href: string; text: string }
  | { type: 'mono'; text: string };

const MARKERS: Record<string, 'bold' | 'italic' | 'strike'> = { '*': 'bold', _: 'italic', '~': 'strike' };
const LINK = /^https?:\/\/[^\s<>"]+/i;
// Punctuation that ends a sentence rather than the link ("see https://x.com.").
const TRAILING = /[.,;:!?)\]'"]+$/;

const isWordChar = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}]/u.test(ch);
const isSpace = (ch: string | undefined) => ch === undefined || /\s/.test(ch);

/** Where the marker opened at `start` closes, or -1: on the same line, not after a space, not inside a word. */
function findClose(text: string, start: number, marker: string): number {
  for (let i = start + 2; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === '\n') return -1;
    if (ch === marker && !isSpace(text[i - 1]) && !isWordChar(text[i + 1])) return i;
  }
  return -1;
}

function pushText(nodes: FormatNode[], text: string): void {
  if (!text) return;
  const last = nodes.at(-1);
  if (last?.type === 'text') last.text += text;
  else nodes.push({ type: 'text', text });
}

export function parseFormatting(text: string): FormatNode[] {
  const nodes: FormatNode[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const atWordStart = !isWordChar(text[i - 1]);
    if ((ch === 'h' || ch === 'H') && atWordStart) {
      const match = LINK.exec(text.slice(i));
      if (match) {
        const href = match[0].replace(TRAILING, '');
        nodes.push({ type: 'link', href, text: href });
        i += href.length;
        continue;
      }
    }
    // ```monospace``` keeps its content as typed (no formatting inside), possibly over several lines.
    if (text.startsWith('```', i)) {
      const close = text.indexOf('```', i + 3);
      if (close > i + 3) {
        nodes.push({ type: 'mono', text: text.slice(i + 3, close) });
        i = close + 3;
        continue;
      }
    }
    const kind = MARKERS[ch];
    if (kind && atWordStart && !isSpace(text[i + 1]) && text[i + 1] !== ch) {
      const close = findClose(text, i, ch);
      if (close > 0) {
        nodes.push({ type: kind, children: parseFormatting(text.slice(i + 1, close)) });
        i = close + 1;
        continue;
      }
    }
    pushText(nodes, ch);
    i += 1;
  }
  return nodes;
}

function renderNodes(nodes: FormatNode[], keyPrefix: string): ReactNode[] {
  return nodes.map((node, index) => {
    const key = `${keyPrefix}${index}`;
    switch (node.type) {
      case 'text':
        return node.text;
      case 'bold':
        return <strong key={key}>{renderNodes(node.children, `${key}.`)}</strong>;
      case 'italic':
        return <em key={key}>{renderNodes(node.children, `${key}.`)}</em>;
      case 'strike':
        return <s key={key}>{renderNodes(node.children, `${key}.`)}</s>;
      case 'mono':
        return (
          <code key={key} style={{ fontFamily: 'monospace' }}>
            {node.text}
          </code>
        );
      case 'link':
        return (
          <a key={key} href={node.href} target="_blank" rel="noopener noreferrer">
            {node.text}
          </a>
        );
    }
  });
}

/** The message text as React nodes; line breaks are kept by the bubble's `white-space: pre-wrap`. */
export function FormattedText({ text }: { text: string }) {
  return <>{renderNodes(parseFormatting(text), '')}</>;
}
