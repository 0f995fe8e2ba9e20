import { CHATBOT_TEXT_DEFAULTS, CHATBOT_TEXT_LANGUAGES, fillMessageVariables, type ChatbotTextKey, type ChatbotTextLanguage } from '@atende/shared';
import type { AutomationTicket } from './automation.repo.js';

const backAndMainMenu = (back: string, mainMenu: string) => `*0* - ${back}\n*#* - ${mainMenu}`;

/** The languages a company speaks to its customers in (setting `language`). */
type TextLanguage = ChatbotTextLanguage;

/**
 * What the automation says when the company configured no text of its own, in
 * each language a company can choose (setting `language`, DECISIONS §1): the
 * Portuguese ones are the product's own, as the spec writes its texts. Customers
 * read them on WhatsApp; company texts always win where the spec has a field.
 */
const AUTOMATION_TEXT_DEFAULTS = {
  pt: {
    invalidOption: 'Opção inválida. Responda apenas com o número de uma das opções.',
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
  },
  en: {
    invalidOption: 'Invalid option. Please reply with the number of one of the options.',
    handover: 'Thank you! One of our agents will continue with you shortly.',
    outOfHours: 'We are outside our service hours. We will reply as soon as possible.',
    acceptGreeting: '{{ms}}, {{firstName}}! My name is *{agent}* and I will continue helping you.',
    transferToQueue: 'You have been transferred to the *{queue}* team. Please wait, you will be helped soon.',
    transferToUser: 'You have been transferred to *{user}*. Please wait, you will be helped soon.',
    ratingRequest: 'Please rate our service.',
    ratingOptions: 'Reply with a number:\n*1* - Unsatisfied\n*2* - Satisfied\n*3* - Very satisfied',
    ratingInvalid: 'Invalid answer. Please reply with 1, 2 or 3 only.',
    ratingThanks: 'Thank you for your rating!',
    callRejected: 'This number does not take voice or video calls. Please send a text message.',
    botUnavailable: 'I cannot answer right now. I will transfer you to one of our agents.',
    aiHandover: 'I will transfer you to one of our agents.',
    audioNotUnderstood: 'I could not understand the audio. Could you write your message?',
  },
  es: {
    invalidOption: 'Opción inválida. Responda solo con el número de una de las opciones.',
    handover: '¡Gracias! En instantes uno de nuestros agentes continuará su atención.',
    outOfHours: 'Estamos fuera del horario de atención. Le responderemos lo antes posible.',
    acceptGreeting: '{{ms}}, {{firstName}}! Mi nombre es *{agent}* y voy a continuar su atención.',
    transferToQueue: 'Usted fue transferido al sector *{queue}*. Espere, pronto será atendido.',
    transferToUser: 'Usted fue transferido al agente *{user}*. Espere, pronto será atendido.',
    ratingRequest: 'Por favor, evalúe nuestra atención.',
    ratingOptions: 'Responda con un número:\n*1* - Insatisfecho\n*2* - Satisfecho\n*3* - Muy satisfecho',
    ratingInvalid: 'Respuesta inválida. Responda solo con 1, 2 o 3.',
    ratingThanks: '¡Gracias por su evaluación!',
    callRejected: 'Este número no atiende llamadas de voz ni de video. Por favor, envíe un mensaje de texto.',
    botUnavailable: 'En este momento no puedo responder. Lo voy a transferir a uno de nuestros agentes.',
    aiHandover: 'Lo voy a transferir a uno de nuestros agentes.',
    audioNotUnderstood: 'No pude entender el audio. ¿Puede escribir su mensaje?',
  },
} as const satisfies Record<TextLanguage, Record<string, string>>;

export type AutomationTexts = Record<keyof (typeof AUTOMATION_TEXT_DEFAULTS)['pt'], string>;

/** The company's language for its customers (setting `language`); Portuguese when unset or unknown. */
export function companyLanguage(settings: { language?: string }): TextLanguage {
  return CHATBOT_TEXT_LANGUAGES.find((candidate) => candidate === settings.language) ?? 'pt';
}

/**
 * The automation's own texts in the company's language; the accept and transfer notices as the
 * company wrote them when it did (whaticket v6's `sendGreetingAcceptedMessage` and
 * `sendMsgTransfTicketMessage`, with `{{agent}}`, `{{queue}}` and the message variables).
 */
export function automationTexts(settings: { language?: string; sendGreetingAcceptedMessage?: string; sendMsgTransfTicketMessage?: string }): AutomationTexts {
  const texts = AUTOMATION_TEXT_DEFAULTS[companyLanguage(settings)];
  const accepted = settings.sendGreetingAcceptedMessage?.trim();
  const transferred = settings.sendMsgTransfTicketMessage?.trim();
  if (!accepted && !transferred) return texts;
  return { ...texts, ...(accepted ? { acceptGreeting: accepted } : {}), ...(transferred ? { transferToUser: transferred, transferToQueue: transferred } : {}) };
}

/**
 * An automatic text as the customer reads it: the message variables filled for
 * the ticket (its contact, its protocol, the company's clock), in the same pass
 * as the text's own placeholders (`{agent}`, `{queue}`, `{user}` of the texts above).
 */
export function automaticText(template: string, at: Pick<AutomationTicket, 'ticket' | 'contact' | 'company' | 'settings'>, now: Date, own: Record<string, string> = {}): string {
  return fillMessageVariables(template, {
    contact: at.contact,
    protocol: at.ticket.id,
    now,
    timeZone: at.company.timezone,
    language: at.settings.language,
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
  const language = companyLanguage(settings);
  const text = (key: ChatbotTextKey) => {
    const stored = settings[key]?.trim();
    const untouched = !stored || stored === CHATBOT_TEXT_DEFAULTS.pt[key];
    return untouched ? CHATBOT_TEXT_DEFAULTS[language][key] : stored;
  };
  return { chooseOption: text('chatbotChooseOption'), backAndMainMenu: backAndMainMenu(text('chatbotBack'), text('chatbotMainMenu')) };
}
