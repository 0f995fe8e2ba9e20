import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FormattedText, parseFormatting } from './format-message';

describe('message text formatting', () => {
  it('turns *bold*, _italic_ and ~strike~ into their styles', () => {
    expect(parseFormatting('Olá *mundo*, _tudo_ ~bem~?')).toEqual([
      { type: 'text', text: 'Olá ' },
      { type: 'bold', children: [{ type: 'text', text: 'mundo' }] },
      { type: 'text', text: ', ' },
      { type: 'italic', children: [{ type: 'text', text: 'tudo' }] },
      { type: 'text', text: ' ' },
      { type: 'strike', children: [{ type: 'text', text: 'bem' }] },
      { type: 'text', text: '?' },
    ]);
  });

  it('nests styles and keeps multi-word spans', () => {
    expect(parseFormatting('*muito _importante_ mesmo*')).toEqual([
      {
        type: 'bold',
        children: [{ type: 'text', text: 'muito ' }, { type: 'italic', children: [{ type: 'text', text: 'importante' }] }, { type: 'text', text: ' mesmo' }],
      },
    ]);
  });

  it('leaves markers alone inside words, around spaces, unclosed or across lines', () => {
    for (const text of ['snake_case_name', '2 * 3 * 4', '*sem fim', '* espaço*', '*quebra\nlinha*', '**', 'a*b*c']) {
      expect(parseFormatting(text), text).toEqual([{ type: 'text', text }]);
    }
  });

  it('finds http and https links, without the sentence punctuation after them', () => {
    expect(parseFormatting('Veja https://exemplo.com/a?b=1. E http://x.io!')).toEqual([
      { type: 'text', text: 'Veja ' },
      { type: 'link', href: 'https://exemplo.com/a?b=1', text: 'https://exemplo.com/a?b=1' },
      { type: 'text', text: '. E ' },
      { type: 'link', href: 'http://x.io', text: 'http://x.io' },
      { type: 'text', text: '!' },
    ]);
    expect(parseFormatting('ftp://x.io javascript:alert(1)')).toEqual([{ type: 'text', text: 'ftp://x.io javascript:alert(1)' }]);
  });

  it('renders links that open in a new tab without access to this page, and markup as plain text', () => {
    const { container } = render(<FormattedText text={'*Oi* <script>alert(1)</script> https://exemplo.com'} />);
    const link = container.querySelector('a')!;
    expect(link.getAttribute('href')).toBe('https://exemplo.com');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(container.querySelector('strong')?.textContent).toBe('Oi');
    expect(container.querySelector('script')).toBeNull();
    expect(container.textContent).toContain('<script>alert(1)</script>');
  });
});
