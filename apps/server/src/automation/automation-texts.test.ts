import { describe, expect, it } from 'vitest';
import { chatbotMenuTexts } from './automation-texts.js';

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
