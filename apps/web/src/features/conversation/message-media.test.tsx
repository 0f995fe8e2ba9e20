import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { setupI18n } from '../../i18n';
import { buildMessage } from '../../test/build-message';
import { MessageMedia } from './message-media';

beforeEach(async () => {
  await setupI18n().changeLanguage('pt');
});

describe('a shared contact card', () => {
  it('shows everything the channel kept: company, phones, e-mails, addresses, sites and birthday', () => {
    const message = buildMessage(1, {
      mediaType: 'vcard',
      body: 'BEGIN:VCARD\nFN:Rita Lima\nEND:VCARD',
      dataJson: {
        contacts: [
          {
            name: 'Rita Lima',
            organization: 'Lima & Cia',
            phones: [{ phone: '+55 11 98888-7777', type: 'CELL' }],
            emails: [{ email: 'rita@example.com' }],
            addresses: [{ address: 'Rua das Flores, 10, São Paulo, SP', type: 'WORK' }],
            urls: [{ url: 'https://lima.example.com' }],
            birthday: '1990-05-17',
          },
        ],
      },
    });
    render(<MessageMedia message={message} />);
    const card = screen.getByTestId('message-vcard');
    for (const text of ['Rita Lima', 'Lima & Cia', '+55 11 98888-7777', 'rita@example.com', 'Rua das Flores, 10, São Paulo, SP', 'https://lima.example.com', 'Aniversário: 17/05/1990']) {
      expect(card.textContent, text).toContain(text);
    }
  });
});
