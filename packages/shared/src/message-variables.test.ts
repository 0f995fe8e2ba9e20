import { describe, expect, it } from 'vitest';
import { unknownMessageVariables } from './message-variables.js';

describe('message variables', () => {
  it('names each unknown placeholder once, and accepts the known ones with or without spaces', () => {
    expect(unknownMessageVariables('Olá {{firstName}}, {{ ms }}! Protocolo {{protocol}} às {{hora}} ({{name}})')).toEqual([]);
    expect(unknownMessageVariables('Olá {{nome}} e {{ nome }}, {{}} {{first Name}}')).toEqual(['nome', '', 'first Name']);
    expect(unknownMessageVariables('sem variáveis { nem chaves }')).toEqual([]);
  });
});
