import { describe, expect, it } from 'vitest';
import { isTemplateSendable, isWindowOpen, missingParameters, renderTemplate, sortTemplates, templateSendBody, usesCloudApi, type MessageTemplate } from './cloud-api';

const template = (overrides: Partial<MessageTemplate> = {}): MessageTemplate => ({
  name: 'pedido_pronto',
  language: 'pt_BR',
  status: 'APPROVED',
  category: 'UTILITY',
  body: 'Olá {{1}}, seu pedido {{2}} está pronto.',
  parameters: 2,
  ...overrides,
});

describe('Cloud API tickets', () => {
  it('are those whose connection uses the Cloud API', () => {
    expect(usesCloudApi({ whatsapp: { id: 1, name: 'Oficial', status: 'CONNECTED', provider: 'cloud-api', pix: '', pixMessage: '' } })).toBe(true);
    expect(usesCloudApi({ whatsapp: { id: 1, name: 'QR', status: 'CONNECTED', provider: 'beta', pix: '', pixMessage: '' } })).toBe(false);
    expect(usesCloudApi({ whatsapp: { id: 1, name: 'Teste', status: 'CONNECTED', provider: 'sandbox', pix: '', pixMessage: '' } })).toBe(false);
    expect(usesCloudApi({ whatsapp: null })).toBe(false);
  });
});

describe('customer-service window', () => {
  const expiresAt = '2026-05-02T12:00:00.000Z';

  it('is open while the server says so and its expiry has not been seen to pass', () => {
    expect(isWindowOpen({ required: true, open: true, expiresAt })).toBe(true);
    expect(isWindowOpen({ required: true, open: true, expiresAt }, expiresAt)).toBe(false);
    // An older expiry seen to pass does not close a window the customer has since extended.
    expect(isWindowOpen({ required: true, open: true, expiresAt }, '2026-05-01T09:00:00.000Z')).toBe(true);
  });

  it('is closed when the customer never wrote or wrote more than 24 hours ago', () => {
    expect(isWindowOpen({ required: true, open: false, expiresAt: null })).toBe(false);
    expect(isWindowOpen({ required: true, open: false, expiresAt: '2026-05-01T12:00:00.000Z' })).toBe(false);
  });

  it('does not apply to other providers, and counts as open until known', () => {
    expect(isWindowOpen({ required: false, open: true, expiresAt: null })).toBe(true);
    expect(isWindowOpen(undefined)).toBe(true);
  });
});

describe('message templates', () => {
  it('only approved templates can be sent; they are listed first, then by name', () => {
    expect(isTemplateSendable(template({ status: 'approved' }))).toBe(true);
    expect(isTemplateSendable(template({ status: 'PENDING' }))).toBe(false);
    expect(isTemplateSendable(template({ status: 'REJECTED' }))).toBe(false);
    const sorted = sortTemplates([
      template({ name: 'boas_vindas', status: 'REJECTED' }),
      template({ name: 'lembrete' }),
      template({ name: 'aviso', language: 'es' }),
      template({ name: 'aviso', language: 'en_US' }),
    ]);
    expect(sorted.map((t) => `${t.name}/${t.language}`)).toEqual(['aviso/en_US', 'aviso/es', 'lembrete/pt_BR', 'boas_vindas/pt_BR']);
  });

  it('previews the body with the parameters filled in, keeping the placeholders still empty', () => {
    expect(renderTemplate('Olá {{1}}, seu pedido {{ 2 }} está pronto.', ['Maria', ''])).toBe('Olá Maria, seu pedido {{ 2 }} está pronto.');
    expect(renderTemplate('Olá {{1}}, seu pedido {{2}} está pronto. {{1}}!', [' Maria ', '#42'])).toBe('Olá Maria, seu pedido #42 está pronto. Maria!');
  });

  it('needs every parameter filled', () => {
    expect(missingParameters(template(), ['Maria', '  '])).toEqual([1]);
    expect(missingParameters(template(), [])).toEqual([0, 1]);
    expect(missingParameters(template({ parameters: 0 }), [])).toEqual([]);
  });

  it('sends name, language and exactly the parameters the template takes, trimmed', () => {
    expect(templateSendBody(template(), [' Maria ', '#42', 'extra'])).toEqual({ name: 'pedido_pronto', language: 'pt_BR', parameters: ['Maria', '#42'] });
    expect(templateSendBody(template({ name: 'hello_world', language: 'en_US', parameters: 0, body: 'Hello World' }), [])).toEqual({
      name: 'hello_world',
      language: 'en_US',
      parameters: [],
    });
  });
});
