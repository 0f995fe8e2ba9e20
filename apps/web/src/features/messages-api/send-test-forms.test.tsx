import { render as renderUi, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastHost } from '../../components/toast';
import type { ReactElement } from 'react';
import { setupI18n } from '../../i18n';
import { shownToasts } from '../../test/toasts';
import { MediaTestFormCard, TextTestFormCard } from './send-test-forms';

const fetchMock = vi.fn<typeof fetch>();

beforeAll(async () => {
  // In Portuguese, also when an earlier file of the run already started i18next in another language.
  await setupI18n().changeLanguage('pt');
});
beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

/** With the app's toaster, so a toast is asserted as the user sees it. */
const render = (ui: ReactElement) => renderUi(<ToastHost>{ui}</ToastHost>);

const sent = () => new Response(JSON.stringify({ message: 'Message sent.', ticketId: 1, messageIds: [1] }), { status: 200 });

describe('text test form', () => {
  it('refuses to send without token, number and body', async () => {
    const user = userEvent.setup();
    render(<TextTestFormCard />);
    await user.click(screen.getByTestId('text-test-send'));
    expect(await screen.findAllByText('Obrigatório')).toHaveLength(3);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("checks the number with the API's normaliser before sending", async () => {
    const user = userEvent.setup();
    render(<TextTestFormCard />);
    await user.type(screen.getByTestId('text-test-token'), 'token-da-conexao-123');
    await user.type(screen.getByTestId('text-test-number'), '99999-0000');
    await user.type(screen.getByTestId('text-test-body'), 'Olá!');
    await user.click(screen.getByTestId('text-test-send'));
    expect(await screen.findByText(/^Número de telefone inválido/)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends JSON with the bearer token, says so, and keeps token and number for the next test', async () => {
    fetchMock.mockResolvedValue(sent());
    const user = userEvent.setup();
    render(<TextTestFormCard />);
    await user.type(screen.getByTestId('text-test-token'), 'token-da-conexao-123');
    await user.type(screen.getByTestId('text-test-number'), '+55 11 99999-0000');
    await user.type(screen.getByTestId('text-test-body'), 'Olá!');
    await user.click(screen.getByTestId('text-test-send'));
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'success', text: 'Mensagem enviada com sucesso' }]));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/messages/send');
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer token-da-conexao-123');
    // As typed: the API normalises it (what the form checked with the same schema).
    expect(JSON.parse(init?.body as string)).toEqual({ number: '+55 11 99999-0000', body: 'Olá!' });
    expect(screen.getByTestId('text-test-body')).toHaveProperty('value', '');
    expect(screen.getByTestId('text-test-token')).toHaveProperty('value', 'token-da-conexao-123');
  });

  it('shows the refusal as an error toast', async () => {
    fetchMock.mockResolvedValue(new Response(JSON.stringify({ error: 'ERR_INVALID_API_TOKEN' }), { status: 401 }));
    const user = userEvent.setup();
    render(<TextTestFormCard />);
    await user.type(screen.getByTestId('text-test-token'), 'errado');
    await user.type(screen.getByTestId('text-test-number'), '5511999990000');
    await user.type(screen.getByTestId('text-test-body'), 'Oi');
    await user.click(screen.getByTestId('text-test-send'));
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'error', text: 'Token da API inválido.' }]));
    expect(screen.getByTestId('text-test-body')).toHaveProperty('value', 'Oi');
  });
});

describe('media test form', () => {
  it('needs a file, then sends it as multipart medias with the caption', async () => {
    fetchMock.mockResolvedValue(sent());
    const user = userEvent.setup();
    render(<MediaTestFormCard />);
    await user.type(screen.getByTestId('media-test-token'), 'token-da-conexao-123');
    await user.type(screen.getByTestId('media-test-number'), '5511999990000');
    await user.click(screen.getByTestId('media-test-send'));
    expect(await screen.findByText('Obrigatório')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();

    const file = new File(['%PDF'], 'contrato.pdf', { type: 'application/pdf' });
    await user.upload(screen.getByTestId('media-test-file'), file);
    expect(screen.getByTestId('media-test-file-chip').textContent).toBe('contrato.pdf');
    await user.type(screen.getByTestId('media-test-body'), 'Segue o contrato');
    await user.click(screen.getByTestId('media-test-send'));
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'success', text: 'Mensagem enviada com sucesso' }]));
    const form = fetchMock.mock.calls[0]![1]?.body as FormData;
    expect(form.get('number')).toBe('5511999990000');
    expect(form.get('body')).toBe('Segue o contrato');
    expect((form.get('medias') as File).name).toBe('contrato.pdf');
    // Sent: the file is cleared for the next test.
    await waitFor(() => expect(screen.queryByTestId('media-test-file-chip')).toBeNull());
  });
});
