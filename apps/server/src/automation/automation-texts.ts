import { CHATBOT_TEXT_DEFAULTS, CHATBOT_TEXT_LANGUAGES, fillMessageVariables, type ChatbotTextKey } from '@atende/shared';
import type { AutomationTicket } from './automation.repo.js';

const backAndMainMenu = (back: string, mainMenu: string) => `*0* - ${back}\n*#* - ${mainMenu}`;

/**
 * What the automation says when the company configured no text of its own.
 * Customers read these on WhatsApp, in the product's language (Portuguese, as
 * the spec's own texts); company texts always win where the spec has a field.
 */
export const AUTOMATION_TEXTS = {
  /** The chatbot's menu words are company settings (chatbotMenuTexts); these are their Portuguese defaults. */
  chooseOption: CHATBOT_TEXT_DEFAULTS.pt.chatbotChooseOption,
  invalidOption: 'Opção inválida. Responda apenas com o número de uma das opções.',
  backAndMainMenu: backAndMainMenu(CHATBOT_TEXT_DEFAULTS.pt.chatbotBack, CHATBOT_TEXT_DEFAULTS.pt.chatbotMainMenu),
  handover: 'Obrigado! Em instantes um de nossos atendentes vai continuar o seu atendimento.',
  outOfHours: 'Estamos fora do horário de atendimento. Responderemos assim que possível.',
  acceptGreeting: '{{ms}}, {{firstName}}! Meu nome é *{agent}* e vou continuar o seu atendimento.',
  transferToQueue: 'Você foi transferido para o setor *{queue}*. Aguarde, em breve você será atendido.',
  transferToUser: 'Você foi transferido para o atendente *{user}*. Aguarde, em breve você será atendido.',
  ratingRequest: 'Por favor, avalie o nosso atendimento.',
  ratingOptions: 'Responda com um número:\n*1* - Insatisfeito\n*2* - Satisfeito\n*3* - Muito satisfeito',
  ratingInvalid: 'Resposta inválida. Responda apenas com 1, 2 ou 3.',
  ratingThanks: 'Obrigado pela sua avaliação!',
  callRejected: 'Este número não atende chamadas de voz ou vídeo. Por favor, envie uma mensagem de texto.',
  botUnavailable: 'No momento não consigo responder. Vou transferir você para um de nossos atendentes.',
  aiHandover: 'Vou transferir você para um de nossos atendentes.',
  audioNotUnderstood: 'Não consegui entender o áudio. Pode escrever a sua mensagem?',
} as const;

/**
 * An automatic text as the customer reads it: the message variables filled for
 * the ticket (its contact, its protocol, the company's clock), in the same pass
 * as the text's own placeholders (`{agent}`, `{queue}`, `{user}` of the texts above).
 */
export function automaticText(template: string, at: Pick<AutomationTicket, 'ticket' | 'contact' | 'company'>, now: Date, own: Record<string, string> = {}): string {
  return fillMessageVariables(template, {
    contact: at.contact,
    protocol: at.ticket.id,
    now,
    timeZone: at.company.timezone,
    custom: Object.entries(own).map(([key, value]) => ({ key, value })),
  });
}

export interface ChatbotMenuTexts {
  chooseOption: string;
  backAndMainMenu: string;
}

/**
 * The company's chatbot menu words (settings). A word left empty, or still the
 * Portuguese default every company started with, says the default of the company's
 * language (setting `language`, DECISIONS §1); words the company chose (its own, or
 * another language's defaults filled in on the Options tab) are said as written.
 */
export function chatbotMenuTexts(settings: Partial<Record<ChatbotTextKey | 'language', string>>): ChatbotMenuTexts {
  const language = CHATBOT_TEXT_LANGUAGES.find((candidate) => candidate === settings.language) ?? 'pt';
  const text = (key: ChatbotTextKey) => {
    const stored = settings[key]?.trim();
    const untouched = !stored || stored === CHATBOT_TEXT_DEFAULTS.pt[key];
    return untouched ? CHATBOT_TEXT_DEFAULTS[language][key] : stored;
  };
  return { chooseOption: text('chatbotChooseOption'), backAndMainMenu: backAndMainMenu(text('chatbotBack'), text('chatbotMainMenu')) };
}
