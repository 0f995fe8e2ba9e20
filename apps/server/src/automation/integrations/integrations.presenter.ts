import type { PresentedIntegration } from '@atende/shared';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { QueueIntegrationRow } from '../../platform/db/schema.js';
import { maskedKey } from '../../modules/prompts/prompts.presenter.js';

/**
 * Credentials never leave in full: the Dialogflow key and the webhook signing
 * secret are shown masked, and the dialog may send the mask back unchanged.
 */
export function presentIntegration(integration: QueueIntegrationRow, secrets: SecretBox): PresentedIntegration {
  return {
    id: integration.id,
    type: integration.type,
    name: integration.name,
    projectName: integration.projectName,
    jsonContent: maskedKey(integration.jsonContentSealed, secrets),
    language: integration.language,
    urlN8N: integration.urlN8N,
    typebotSlug: integration.typebotSlug,
    typebotExpires: integration.typebotExpires,
    typebotDelayMessage: integration.typebotDelayMessage,
    typebotKeywordFinish: integration.typebotKeywordFinish,
    typebotKeywordRestart: integration.typebotKeywordRestart,
    typebotUnknownMessage: integration.typebotUnknownMessage,
    typebotRestartMessage: integration.typebotRestartMessage,
    signingSecret: maskedKey(integration.signingSecretSealed, secrets),
    companyId: integration.companyId,
    createdAt: integration.createdAt.toISOString(),
    updatedAt: integration.updatedAt.toISOString(),
  };
}
