import { TYPEBOT_DEFAULTS, type IntegrationBody, type IntegrationType } from '@atende/shared';

/** An integration as `/queueIntegration` answers it (the Dialogflow key and the signing secret masked). */
export interface Integration {
  id: number;
  type: IntegrationType;
  name: string;
  projectName: string;
  jsonContent: string;
  language: string;
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: number;
  typebotDelayMessage: number;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotUnknownMessage: string;
  typebotRestartMessage: string;
  signingSecret: string;
  companyId: number;
  createdAt: string;
  updatedAt: string;
}

/** The dialog's fields; the signing secret is held apart (a masked value is never a valid secret). */
export interface IntegrationFormValues {
  type: IntegrationType;
  name: string;
  projectName: string;
  jsonContent: string;
  language: 'pt-BR' | 'en' | 'es';
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: number | string;
  typebotDelayMessage: number | string;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotUnknownMessage: string;
  typebotRestartMessage: string;
}

/** Which groups of fields the dialog shows for a type (spec part 2 §2.13). */
export function integrationSections(type: IntegrationType): { dialogflow: boolean; url: boolean; secret: boolean; typebot: boolean } {
  return {
    dialogflow: type === 'dialogflow',
    url: type !== 'dialogflow',
    secret: type === 'n8n' || type === 'webhook',
    typebot: type === 'typebot',
  };
}

const LANGUAGES = new Set(['pt-BR', 'en', 'es']);

/** A new integration starts as Dialogflow in Portuguese, with the Typebot defaults (spec part 2 §9) ready if the type changes. */
export function integrationFormDefaults(integration: Integration | null): IntegrationFormValues {
  return {
    type: integration?.type ?? 'dialogflow',
    name: integration?.name ?? '',
    projectName: integration?.projectName ?? '',
    jsonContent: integration?.jsonContent ?? '',
    language: integration && LANGUAGES.has(integration.language) ? (integration.language as IntegrationFormValues['language']) : 'pt-BR',
    urlN8N: integration?.urlN8N ?? '',
    typebotSlug: integration?.typebotSlug ?? '',
    typebotExpires: integration?.typebotExpires ?? TYPEBOT_DEFAULTS.typebotExpires,
    typebotDelayMessage: integration?.typebotDelayMessage ?? TYPEBOT_DEFAULTS.typebotDelayMessage,
    typebotKeywordFinish: integration?.typebotKeywordFinish ?? '',
    typebotKeywordRestart: integration?.typebotKeywordRestart ?? '',
    typebotUnknownMessage: integration?.typebotUnknownMessage ?? '',
    typebotRestartMessage: integration?.typebotRestartMessage ?? '',
  };
}

export type IntegrationPayload = IntegrationBody & { signingSecret?: string };

/**
 * The body of POST/PUT: the project name follows the name for n8n, webhook and
 * typebot (spec part 2 §5); a signing secret goes only when one was typed (empty
 * on create: the server generates one; on edit: the stored one is kept).
 */
export function integrationPayload(values: IntegrationBody, secret: string): IntegrationPayload {
  const payload: IntegrationPayload = { ...values, projectName: values.type === 'dialogflow' ? values.projectName : values.name };
  delete payload.signingSecret;
  const typed = secret.trim();
  if (integrationSections(values.type).secret && typed) payload.signingSecret = typed;
  return payload;
}

/** Spec: a secret signs with HMAC-SHA256; shorter than 16 characters it is refused. */
export function secretError(secret: string): 'validation.tooShort' | 'validation.tooLong' | null {
  const typed = secret.trim();
  if (!typed) return null;
  if (typed.length < 16) return 'validation.tooShort';
  if (typed.length > 200) return 'validation.tooLong';
  return null;
}

/** True when a create answer carries a secret the server generated, shown in full this once. */
export function generatedSecret(sent: IntegrationPayload, answer: Pick<Integration, 'type' | 'signingSecret'>): string | null {
  if (sent.signingSecret || !integrationSections(answer.type).secret) return null;
  // A masked answer ('abc••••wxyz') means the server did not generate one.
  return answer.signingSecret && !answer.signingSecret.includes('•') ? answer.signingSecret : null;
}

/** The server's mask ('abc••••wxyz'): what the list keeps of a secret shown once in full. */
export function maskedSecret(secret: string): string {
  if (!secret) return '';
  return secret.length <= 8 ? '••••' : `${secret.slice(0, 3)}••••${secret.slice(-4)}`;
}
