import { unknownMessageVariables } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { automationTexts, chatbotMenuTexts, companyLanguage } from './automation-texts.js';

describe("the chatbot's menu words", () => {
  it("speak the company's language while they are the Portuguese defaults, and the words the company chose as written", () => {
    const portugueseDefaults = { chatbotChooseOption: 'Escolha uma das opções abaixo:', chatbotBack: 'Voltar', chatbotMainMenu: 'Menu principal' };
    expect(chatbotMenuTexts({ ...portugueseDefaults, language: 'pt' })).toEqual({
      chooseOption: 'Escolha uma das opções abaixo:',
      backAndMainMenu: '*0* - Voltar\n*#* - Menu principal',
    });
    // A company that switched to English, its words never touched.
    expect(chatbotMenuTexts({ ...portugueseDefaults, language: 'en' })).toEqual({
      chooseOption: 'Choose one of the options below:',
      backAndMainMenu: '*0* - Back\n*#* - Main menu',
    });
    // Its own words stay, and so do defaults it chose; an emptied one says the Spanish default.
    expect(chatbotMenuTexts({ chatbotChooseOption: 'Digite o número:', chatbotBack: '', chatbotMainMenu: 'Main menu', language: 'es' })).toEqual({
      chooseOption: 'Digite o número:',
      backAndMainMenu: '*0* - Volver\n*#* - Main menu',
    });
    expect(chatbotMenuTexts({})).toMatchObject({ chooseOption: 'Escolha uma das opções abaixo:' });
  });
});

describe("the automation's own texts", () => {
  const languages = ['pt', 'en', 'es'] as const;
  const placeholders = (text: string) => [...text.matchAll(/\{\{?[^{}]+\}\}?/g)].map((match) => match[0]).sort();

  it("are said in the company's language, Portuguese when it has none we know", () => {
    expect(automationTexts({ language: 'en' }).ratingThanks).toBe('Thank you for your rating!');
    expect(automationTexts({ language: 'es' }).outOfHours).toBe('Estamos fuera del horario de atención. Le responderemos lo antes posible.');
    expect(automationTexts({}).handover).toBe('Obrigado! Em instantes um de nossos atendentes vai continuar o seu atendimento.');
    expect(companyLanguage({ language: 'fr' })).toBe('pt');
  });

  it('have every text in every language, with the same placeholders, all of them variables or their own', () => {
    const portuguese = automationTexts({ language: 'pt' });
    for (const language of languages) {
      const texts = automationTexts({ language });
      expect(Object.keys(texts), language).toEqual(Object.keys(portuguese));
      for (const [key, text] of Object.entries(texts)) {
        expect(text.trim(), `${language}.${key}`).not.toBe('');
        expect(placeholders(text), `${language}.${key}`).toEqual(placeholders(portuguese[key as keyof typeof portuguese]));
        expect(unknownMessageVariables(text, { customKeys: ['agent', 'queue', 'user'] }), `${language}.${key}`).toEqual([]);
      }
    }
  });
});
