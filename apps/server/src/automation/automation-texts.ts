import { CHATBOT_TEXT_DEFAULTS, fillMessageVariables, type ChatbotTextKey } from '@atende/shared';
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

/** The company's chatbot menu words (settings); an emptied one says its Portuguese default. */
export function chatbotMenuTexts(settings: Partial<Record<ChatbotTextKey, string>>): ChatbotMenuTexts {
  const text = (key: ChatbotTextKey) => settings[key]?.trim() || CHATBOT_TEXT_DEFAULTS.pt[key];
  return { chooseOption: text('chatbotChooseOption'), backAndMainMenu: backAndMainMenu(text('chatbotBack'), text('chatbotMainMenu')) };
}
