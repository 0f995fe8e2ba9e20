import type { PresentedMessage } from '@atende/shared';
import { render, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupI18n } from '../../i18n';
import { buildMessage } from '../../test/build-message';
import { MessageBubble } from './message-bubble';

/*
 * What the bubble shows of a message's channel details (issue 19, `dataJson`):
 * each one read back from the rendered bubble, in Portuguese.
 */

const bubble = (extra: Partial<PresentedMessage>) => {
  const message = buildMessage(1, { body: 'Olá', ticketId: 7, ...extra });
  const { container } = render(<MessageBubble message={message} showSender={false} />);
  return container.querySelector<HTMLElement>('[data-testid="message-item"]')!;
};

beforeAll(async () => {
  await setupI18n().changeLanguage('pt');
});

describe('message details in the bubble', () => {
  it('an order as a card with items, prices and total instead of its text summary', () => {
    const item = bubble({
      body: '2 × SKU-1 (BRL 10.50)',
      dataJson: { order: { text: 'Entregar à tarde', items: [{ productId: 'SKU-1', quantity: 2, price: 10.5, currency: 'BRL' }, { productId: 'SKU-2', quantity: 1, price: 5, currency: 'BRL' }] } },
    });
    expect(within(item).getAllByTestId('message-order-item').map((row) => row.textContent)).toEqual(['2 × SKU-1R$\u00a021,00', '1 × SKU-2R$\u00a05,00']);
    expect(within(item).getByTestId('message-order-total').textContent).toBe('R$\u00a026,00');
    expect(within(item).queryByTestId('message-body')).toBeNull();
  });

  it('reactions grouped under the message', () => {
    const item = bubble({ dataJson: { reactions: [{ from: '1', emoji: '👍' }, { from: '2', emoji: '👍' }, { from: '3', emoji: '❤️' }] } });
    expect(within(item).getByTestId('message-reactions').textContent).toBe('👍 2 ❤️');
    expect(bubble({ dataJson: { reactions: [] } }).querySelector('[data-testid="message-reactions"]')).toBeNull();
  });

  it('media on its way, and media that will not come with the reason', () => {
    expect(within(bubble({ body: '', dataJson: { media: { status: 'pending' } } })).getByTestId('message-media-pending').textContent).toBe('Baixando a mídia…');
    expect(within(bubble({ body: '', dataJson: { media: { status: 'unavailable', reason: 'ERR_MEDIA_EXPIRED' } } })).getByTestId('message-media-unavailable').textContent).toBe(
      'Mídia indisponível: O WhatsApp não tem mais este arquivo.',
    );
  });

  it('the forwarded mark, the ad that brought the customer, and unsupported kinds', () => {
    const item = bubble({ dataJson: { forwarded: 'frequently', referral: { headline: 'Promoção de verão', sourceUrl: 'https://fb.me/ad1', body: 'Até 50% off' } } });
    expect(within(item).getByTestId('message-forwarded').textContent).toBe('Encaminhada com frequência');
    const referral = within(item).getByTestId('message-referral');
    expect(referral.textContent).toContain('Veio de um anúncio');
    expect(within(referral).getByRole('link', { name: 'Promoção de verão' }).getAttribute('href')).toBe('https://fb.me/ad1');
    const unsupported = bubble({ body: 'message type not supported by WhatsApp Cloud API (edit)', dataJson: { unsupported: { type: 'edit', code: 131051 } } });
    expect(within(unsupported).getByTestId('message-body').textContent).toBe('Tipo de mensagem não suportado pelo WhatsApp Cloud API (edit)');
  });

  it("a failed send gives the channel's words with the reason", () => {
    const item = bubble({ fromMe: true, sendStatus: 'failed', sendError: 'ERR_WA_UNDELIVERABLE', dataJson: { failure: { code: 131026, title: 'Message undeliverable' } } });
    expect(within(item).getByTestId('message-failed-icon').getAttribute('aria-label') ?? within(item).getByTestId('message-failed-icon').textContent).toContain('Message undeliverable');
  });
});
