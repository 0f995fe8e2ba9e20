import type { PresentedMessage } from '@atende/shared';
import { render, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setupI18n } from '../../i18n';
import { setDisplayTimeZone } from '../../i18n/dates';
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
  // Times are shown in the company's zone, whatever the machine's.
  setDisplayTimeZone('America/Sao_Paulo');
});

afterAll(() => setDisplayTimeZone(null));

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

  describe('WhatsApp Web polls, events and live locations', () => {
    afterEach(async () => {
      await setupI18n().changeLanguage('pt');
    });

    const poll = { name: 'Qual sabor?', options: [{ name: 'Chocolate', votes: 3 }, { name: 'Morango com uma descrição bem longa que precisa quebrar a linha', votes: 1 }, { name: 'Baunilha', votes: 0 }], selectableCount: 1, voters: 4 };
    const pollBody = '📊 Qual sabor?\n- Chocolate\n- Morango com uma descrição bem longa que precisa quebrar a linha\n- Baunilha';

    it('a poll as a card: its question, each option with its votes and bar, the total and single choice, instead of its text', () => {
      const item = bubble({ body: pollBody, dataJson: { poll } });
      const card = within(item).getByTestId('message-poll');
      expect(card.textContent).toContain('Enquete');
      expect(within(card).getByTestId('message-poll-name').textContent).toBe('Qual sabor?');
      expect(within(card).getAllByTestId('message-poll-option').map((row) => row.textContent)).toEqual(['Chocolate3', 'Morango com uma descrição bem longa que precisa quebrar a linha1', 'Baunilha0']);
      const bars = within(card).getAllByRole('progressbar');
      expect(bars.map((bar) => [bar.getAttribute('aria-label'), bar.getAttribute('aria-valuenow')])).toEqual([
        ['Chocolate: 3 votos', '75'],
        ['Morango com uma descrição bem longa que precisa quebrar a linha: 1 voto', '25'],
        ['Baunilha: 0 votos', '0'],
      ]);
      expect(within(card).getByTestId('message-poll-footer').textContent).toBe('4 votos · escolha única');
      expect(within(item).queryByTestId('message-body')).toBeNull();
      expect(item.textContent).not.toContain('📊');
    });

    it('a poll nobody voted in yet, any number of choices, in English and Spanish', async () => {
      const fresh = { ...poll, options: poll.options.map((option) => ({ ...option, votes: 0 })), selectableCount: 0, voters: 0 };
      const one = { ...poll, options: [{ name: 'Yes', votes: 1 }, { name: 'No', votes: 0 }], selectableCount: 2, voters: 1 };
      await setupI18n().changeLanguage('en');
      const card = within(bubble({ body: pollBody, dataJson: { poll: fresh } })).getByTestId('message-poll');
      expect(card.textContent).toContain('Poll');
      expect(within(card).getByTestId('message-poll-footer').textContent).toBe('0 votes · multiple choice');
      expect(within(card).getAllByRole('progressbar').map((bar) => bar.getAttribute('aria-valuenow'))).toEqual(['0', '0', '0']);
      const single = within(bubble({ body: '📊 Qual sabor?', dataJson: { poll: { ...one, selectableCount: 1 } } })).getByTestId('message-poll');
      expect(within(single).getByTestId('message-poll-footer').textContent).toBe('1 vote · single choice');
      expect(within(single).getByRole('progressbar', { name: 'Yes: 1 vote' }).getAttribute('aria-valuenow')).toBe('100');
      await setupI18n().changeLanguage('es');
      const spanish = within(bubble({ body: '📊 Qual sabor?', dataJson: { poll: one } })).getByTestId('message-poll');
      expect(spanish.textContent).toContain('Encuesta');
      expect(within(spanish).getByTestId('message-poll-footer').textContent).toBe('1 voto · opción múltiple');
    });

    it('an event as a card: name, when, where, what, the link to join, and cancelled', () => {
      const item = bubble({
        body: '📅 Lançamento',
        dataJson: {
          event: {
            name: 'Lançamento',
            description: 'Apresentação da nova coleção',
            location: 'Loja Centro - Rua A, 10',
            joinLink: 'https://call.whatsapp.com/video/abc',
            startsAt: '2026-03-10T17:00:00.000Z',
            endsAt: '2026-03-10T19:30:00.000Z',
            cancelled: true,
          },
        },
      });
      const card = within(item).getByTestId('message-event');
      expect(within(card).getByTestId('message-event-name').textContent).toBe('Lançamento');
      expect(within(card).getByTestId('message-event-when').textContent).toBe('10/03/2026 14:00 – 16:30');
      expect(within(card).getByTestId('message-event-location').textContent).toBe('Loja Centro - Rua A, 10');
      expect(within(card).getByTestId('message-event-description').textContent).toBe('Apresentação da nova coleção');
      const link = within(card).getByRole('link', { name: 'Entrar no evento' });
      expect([link.getAttribute('href'), link.getAttribute('target'), link.getAttribute('rel')]).toEqual(['https://call.whatsapp.com/video/abc', '_blank', 'noopener noreferrer']);
      expect(within(card).getByTestId('message-event-cancelled').textContent).toBe('Cancelado');
      expect(within(item).queryByTestId('message-body')).toBeNull();
      expect(item.textContent).not.toContain('📅');
    });

    it('an event with only a name and a start over two days, not cancelled', () => {
      const card = within(bubble({ body: '📅 Feira', dataJson: { event: { name: 'Feira', startsAt: '2026-03-10T17:00:00.000Z', endsAt: '2026-03-11T17:00:00.000Z' } } })).getByTestId('message-event');
      expect(within(card).getByTestId('message-event-when').textContent).toBe('10/03/2026 14:00 – 11/03/2026 14:00');
      expect(within(card).queryByTestId('message-event-cancelled')).toBeNull();
      expect(within(card).queryByRole('link')).toBeNull();
      expect(within(card).queryByTestId('message-event-location')).toBeNull();
    });

    it('a live location says it is live and when it last moved; a plain one does not', async () => {
      const location = { latitude: -23.55, longitude: -46.63 };
      const body = 'https://maps.google.com/maps?q=-23.55%2C-46.63&z=17&hl=pt-BR';
      const item = bubble({ body, mediaType: 'locationMessage', dataJson: { location, live: { sequence: 3, updatedAt: '2026-01-05T13:07:00.000Z', caption: 'Chegando' } } });
      expect(within(item).getByTestId('message-live-location').textContent).toBe('Localização em tempo real · atualizada 10:07');
      expect(item.textContent).toContain('Chegando');
      expect(within(item).getByTestId('message-location').getAttribute('href')).toContain('-23.55');
      expect(within(bubble({ body, mediaType: 'locationMessage', dataJson: { location } })).queryByTestId('message-live-location')).toBeNull();
      await setupI18n().changeLanguage('en');
      const english = bubble({ body, mediaType: 'locationMessage', dataJson: { location, live: { sequence: 4, updatedAt: '2026-01-05T13:08:00.000Z' } } });
      expect(within(english).getByTestId('message-live-location').textContent).toBe('Live location · updated 10:08');
    });
  });
});
