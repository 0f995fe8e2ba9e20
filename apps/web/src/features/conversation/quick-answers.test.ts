import type { PresentedQuickMessage } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { buildQuickMessage } from '../../test/build-quick-message';
import { filterQuickAnswers, quickAnswerLabel, quickAnswerTerm } from './quick-answers';

const quick = (id: number, shortcode: string, message: string): PresentedQuickMessage => buildQuickMessage(id, { shortcode, message, geral: true, userId: null });

const all = [quick(1, 'ola', 'Olá! Como posso ajudar?'), quick(2, 'horario', 'Atendemos das 8h às 18h'), quick(3, 'pix', 'Nossa chave PIX é ...'), quick(4, 'bomdia', 'Bom dia, tudo bem?')];

describe('quick answers', () => {
  it('start only with a leading / followed by more than one character', () => {
    expect(quickAnswerTerm('/')).toBeNull();
    expect(quickAnswerTerm('/o')).toBeNull();
    expect(quickAnswerTerm('/ol')).toBe('ol');
    expect(quickAnswerTerm('ol/')).toBeNull();
    expect(quickAnswerTerm('/ol á')).toBeNull();
    expect(filterQuickAnswers('/o', all)).toEqual([]);
  });

  it('filter by shortcode, case-insensitive, those starting with the term first', () => {
    expect(filterQuickAnswers('/OL', all).map((q) => q.id)).toEqual([1]);
    expect(filterQuickAnswers('/di', all).map((q) => q.id)).toEqual([4]);
    expect(filterQuickAnswers('/ho', all).map((q) => q.id)).toEqual([2]);
    const ordered = filterQuickAnswers('/ab', [quick(5, 'xab', 'x'), quick(6, 'abc', 'y')]);
    expect(ordered.map((q) => q.id)).toEqual([6, 5]);
  });

  it('label "shortcode - message", cut at 35 characters', () => {
    expect(quickAnswerLabel(quick(1, 'ola', 'Oi'))).toBe('ola - Oi');
    const long = quickAnswerLabel(quick(2, 'horario', 'Atendemos de segunda a sexta, das 8h às 18h'));
    expect(long).toBe(`${'horario - Atendemos de segunda a sexta, das 8h às 18h'.slice(0, 35)}...`);
    expect(quickAnswerLabel(quick(3, 'x', 'a'.repeat(31)))).toHaveLength(35);
  });
});
