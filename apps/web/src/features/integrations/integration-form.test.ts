import { IntegrationBody } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { generatedSecret, integrationFormDefaults, integrationPayload, integrationSections, maskedSecret, secretError } from './integration-form';

describe('integration form', () => {
  it('starts with the Typebot defaults (delay 1000 ms, expiry 1 min) and Portuguese', () => {
    expect(integrationFormDefaults(null)).toMatchObject({ type: 'dialogflow', language: 'pt-BR', typebotDelayMessage: 1000, typebotExpires: 1 });
  });

  it('shows the fields each type needs', () => {
    expect(integrationSections('dialogflow')).toEqual({ dialogflow: true, url: false, secret: false, typebot: false });
    expect(integrationSections('n8n')).toEqual({ dialogflow: false, url: true, secret: true, typebot: false });
    expect(integrationSections('webhook')).toEqual({ dialogflow: false, url: true, secret: true, typebot: false });
    expect(integrationSections('typebot')).toEqual({ dialogflow: false, url: true, secret: false, typebot: true });
  });

  it('requires name, url and slug for typebot', () => {
    const result = IntegrationBody.safeParse({ ...integrationFormDefaults(null), type: 'typebot', name: '' });
    expect(result.success).toBe(false);
    const fields = result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
    expect(fields).toEqual(expect.arrayContaining(['name', 'urlN8N', 'typebotSlug']));
  });

  it('sets the project name to the name for n8n, webhook and typebot, not for dialogflow', () => {
    const typebot = IntegrationBody.parse({ ...integrationFormDefaults(null), type: 'typebot', name: 'Fluxo', projectName: 'old', urlN8N: 'https://typebot.example', typebotSlug: 'fluxo' });
    expect(integrationPayload(typebot, '').projectName).toBe('Fluxo');
    const dialogflow = IntegrationBody.parse({ ...integrationFormDefaults(null), name: 'Bot', projectName: 'my-project', jsonContent: '{"a":1}' });
    expect(integrationPayload(dialogflow, '').projectName).toBe('my-project');
  });

  it('sends a signing secret only when one was typed, for n8n and webhook', () => {
    const webhook = IntegrationBody.parse({ ...integrationFormDefaults(null), type: 'webhook', name: 'Hook', urlN8N: 'https://hooks.example/in' });
    expect(integrationPayload(webhook, '  ')).not.toHaveProperty('signingSecret');
    expect(integrationPayload(webhook, ' 0123456789abcdef ').signingSecret).toBe('0123456789abcdef');
    const typebot = IntegrationBody.parse({ ...integrationFormDefaults(null), type: 'typebot', name: 'Fluxo', urlN8N: 'https://t.example', typebotSlug: 's' });
    expect(integrationPayload(typebot, '0123456789abcdef')).not.toHaveProperty('signingSecret');
    expect(secretError('')).toBeNull();
    expect(secretError('short')).toBe('validation.tooShort');
    expect(secretError('0123456789abcdef')).toBeNull();
  });

  it('recognises the secret the server generated on create (shown once), not a masked one', () => {
    const sent = integrationPayload(IntegrationBody.parse({ ...integrationFormDefaults(null), type: 'n8n', name: 'N8N', urlN8N: 'https://n8n.example/hook' }), '');
    expect(generatedSecret(sent, { type: 'n8n', signingSecret: 'f'.repeat(48) })).toBe('f'.repeat(48));
    expect(generatedSecret(sent, { type: 'n8n', signingSecret: 'fff••••ffff' })).toBeNull();
    expect(generatedSecret({ ...sent, signingSecret: '0123456789abcdef' }, { type: 'n8n', signingSecret: '012••••cdef' })).toBeNull();
  });

  it('keeps only the masked form of a secret shown once, as the server shows it', () => {
    expect(maskedSecret('')).toBe('');
    expect(maskedSecret('12345678')).toBe('••••');
    expect(maskedSecret('abcdefghijklmnop')).toBe('abc••••mnop');
  });
});
