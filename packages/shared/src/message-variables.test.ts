import { describe, expect, it } from 'vitest';
import { fillMessageVariables, greetingOfTheDay, messageVariablesOf, unknownMessageVariables, type MessageContext } from './message-variables.js';

const context: MessageContext = {
  contact: { name: '  Maria da Silva ', number: '5511999990000', email: 'maria@example.com' },
  protocol: 42,
  // 12:05:09 in São Paulo (UTC-3).
  now: new Date('2024-06-03T15:05:09Z'),
  timeZone: 'America/Sao_Paulo',
};

describe('filling message variables', () => {
  it('fills the spec names in double braces, spaces inside tolerated', () => {
    expect(fillMessageVariables('{{ms}}, {{firstName}}! Protocolo {{ protocol }} às {{hora}} ({{name}})', context)).toBe(
      'Boa tarde, Maria! Protocolo 42 às 12:05:09 (Maria da Silva)',
    );
  });

  it('fills single braces and the Portuguese names, whatever the case and accents', () => {
    expect(fillMessageVariables('Oi {nome}, {primeiroNome}, {{Nome}}, {NOME}', context)).toBe('Oi Maria da Silva, Maria, Maria da Silva, Maria da Silva');
    expect(fillMessageVariables('{saudação} / {{saudacao}} / {{greeting}}', context)).toBe('Boa tarde / Boa tarde / Boa tarde');
    expect(fillMessageVariables('{protocolo} {numero} {email} {data} {date} {time}', context)).toBe('42 5511999990000 maria@example.com 03/06/2024 03/06/2024 12:05:09');
  });

  it('reads the clock in the company time zone', () => {
    expect(fillMessageVariables('{{ms}} {{data}} {{hora}}', { ...context, now: new Date('2024-06-04T02:30:00Z') })).toBe('Boa noite 03/06/2024 23:30:00');
    expect(fillMessageVariables('{{ms}}', { ...context, now: new Date('2024-06-03T09:00:00Z') })).toBe('Bom dia');
    expect([4, 5, 11, 12, 17, 18].map((hour) => greetingOfTheDay(hour))).toEqual(['Boa noite', 'Bom dia', 'Bom dia', 'Boa tarde', 'Boa tarde', 'Boa noite']);
  });

  it('greets in the company language', () => {
    const morning = { ...context, now: new Date('2024-06-03T09:00:00Z') };
    expect(fillMessageVariables('{{ms}}', { ...morning, language: 'en' })).toBe('Good morning');
    expect(fillMessageVariables('{saudacao}', { ...morning, language: 'es' })).toBe('Buenos días');
    expect(greetingOfTheDay(20, 'es')).toBe('Buenas noches');
    expect(greetingOfTheDay(20, 'xx')).toBe('Boa noite');
  });

  it('fills the extra keys exactly as written, after the variables', () => {
    const custom = [
      { key: 'loja', value: 'Loja Centro' },
      { key: 'meu cupom', value: 'ABC10' },
    ];
    expect(fillMessageVariables('{loja} {{loja}} {meu cupom} {Loja}', { ...context, custom })).toBe('Loja Centro Loja Centro ABC10 {Loja}');
  });

  it('replaces nothing inside other text, and never reads a filled value again', () => {
    expect(fillMessageVariables('{nomeCompleto} {{{name}}} {"name": 1} { name } nome {name', context)).toBe('{nomeCompleto} {{{name}}} {"name": 1} { name } nome {name');
    expect(fillMessageVariables('Olá {{name}}, protocolo {{protocol}}', { ...context, contact: { name: '{{protocol}} {nome}' } })).toBe(
      'Olá {{protocol}} {nome}, protocolo 42',
    );
  });

  it('leaves a variable the context cannot fill as written (a campaign has no protocol)', () => {
    expect(fillMessageVariables('{{protocol}} {{other}}', { ...context, protocol: null })).toBe('{{protocol}} {{other}}');
    expect(fillMessageVariables('{{number}}{{email}}', { ...context, contact: { name: 'Ana' } })).toBe('');
  });
});

describe('unknown message variables', () => {
  it('accepts every name of every variable in both spellings', () => {
    expect(unknownMessageVariables('Olá {{firstName}}, {{ ms }}! Protocolo {{protocol}} às {{hora}} ({{name}})')).toEqual([]);
    expect(unknownMessageVariables('{nome} {primeiroNome} {protocolo} {saudação} {data} {numero} {email} {Time} {{DATE}}')).toEqual([]);
    expect(unknownMessageVariables('sem variáveis { nem chaves } {"a": 1} {{{x}}}')).toEqual([]);
  });

  it('lists each unknown one once, with its braces', () => {
    expect(unknownMessageVariables('Olá {{nme}} e {{ nme }}, {{}} {{first Name}} {cupom} {cupom}')).toEqual(['{{nme}}', '{{}}', '{{first Name}}', '{cupom}']);
  });

  it('refuses a protocol in a campaign, which has no ticket, and takes its settings keys exactly', () => {
    expect(messageVariablesOf('campaign')).not.toContain('protocol');
    expect(unknownMessageVariables('{nome} {protocolo} {loja} {Loja}', { kind: 'campaign', customKeys: ['loja'] })).toEqual(['{protocolo}', '{Loja}']);
    expect(unknownMessageVariables('{loja}')).toEqual(['{loja}']);
  });

  it("in an agent's own typing only an unknown double-brace placeholder is one", () => {
    expect(unknownMessageVariables('use {x} e {nome} aqui, {{x}}', { typed: true })).toEqual(['{{x}}']);
  });
});
