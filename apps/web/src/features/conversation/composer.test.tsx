import type { PresentedMessage, PresentedQuickMessage, PresentedTicket } from '@atende/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastHost } from '../../components/toast';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { buildMessage } from '../../test/build-message';
import { buildQuickMessage } from '../../test/build-quick-message';
import { buildTicket } from '../../test/build-ticket';
import { fakeApi, type FakeApi } from '../../test/fake-api';
import { shownToasts } from '../../test/toasts';
import { QUICK_REPLY_EVENT } from '../tickets/use-ticket-shortcuts';
import { Composer } from './composer';

const quickMessages: PresentedQuickMessage[] = [
  buildQuickMessage(1, { shortcode: 'bomdia', message: 'Bom dia! Em que posso ajudar?', geral: true, userId: null }),
  buildQuickMessage(2, { shortcode: 'saudacao', message: 'Olá {{firstName}}, {{ms}}!', geral: true, userId: null }),
  buildQuickMessage(3, { shortcode: 'errada', message: 'Olá {{nme}}, {{ms}}!', geral: true, userId: null }),
];

let server: FakeApi;

beforeAll(() => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
});
beforeEach(() => {
  // The API the composer talks to: the quick answers, and the send route answering the stored messages.
  server = fakeApi({
    'GET /quick-messages/list': () => quickMessages,
    'POST /messages/5': () => [],
  });
});

afterEach(() => expect(server.unhandled.map((request) => `${request.method} ${request.path}`)).toEqual([]));

/** What the composer sent, as the server received it. */
const sends = () => server.calls('POST /messages/5').map((request) => request.body);

const ticket = (status: PresentedTicket['status']) => buildTicket(5, { uuid: 'u-5', status });
const quoted = buildMessage(42, { body: 'Qual o prazo?', contact: { id: 1, name: 'Maria' } });

function renderComposer(status: PresentedTicket['status'] = 'open', options: { quoted?: PresentedMessage | null; onClearQuoted?: () => void } = {}) {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastHost>
        <SessionProvider onSessionEnd={() => undefined}>
          <Composer ticket={ticket(status)} quoted={options.quoted ?? null} onClearQuoted={options.onClearQuoted ?? (() => undefined)} />
        </SessionProvider>
      </ToastHost>
    </QueryClientProvider>,
  );
}

describe('composer', { timeout: 20_000 }, () => {
  it('sends with Enter (POST /messages/:ticketId), adds a line with Shift+Enter, and clears the input', async () => {
    const user = userEvent.setup();
    renderComposer();
    const input = screen.getByTestId('composer-input');
    await user.type(input, 'Olá{Shift>}{Enter}{/Shift}tudo bem?');
    expect(sends()).toEqual([]);
    expect(input).toHaveProperty('value', 'Olá\ntudo bem?');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(sends()).toEqual([{ body: 'Olá\ntudo bem?', sign: true }]));
    expect(input).toHaveProperty('value', '');
  });

  it('does not send empty or whitespace-only text', async () => {
    const user = userEvent.setup();
    renderComposer();
    await user.type(screen.getByTestId('composer-input'), '   {Enter}');
    expect(sends()).toEqual([]);
    expect(screen.getByTestId('composer-send')).toHaveProperty('disabled', true);
  });

  it('keeps the sign option (on by default) in local storage', async () => {
    const user = userEvent.setup();
    const { unmount } = renderComposer();
    const sign = screen.getByTestId('composer-sign');
    expect(sign).toHaveProperty('checked', true);
    await user.click(sign);
    expect(localStorage.getItem('signOption')).toBe('false');
    await user.type(screen.getByTestId('composer-input'), 'Oi{Enter}');
    await waitFor(() => expect(sends()).toEqual([{ body: 'Oi', sign: false }]));
    unmount();
    renderComposer();
    expect(screen.getByTestId('composer-sign')).toHaveProperty('checked', false);
  });

  it('sends the quoted message and clears it afterwards', async () => {
    const user = userEvent.setup();
    const onClearQuoted = vi.fn();
    renderComposer('open', { quoted, onClearQuoted });
    expect(screen.getByTestId('quoted-preview').textContent).toContain('Qual o prazo?');
    await user.type(screen.getByTestId('composer-input'), 'Amanhã{Enter}');
    await waitFor(() => expect(sends()).toEqual([{ body: 'Amanhã', sign: true, quotedMsg: { id: 42 } }]));
    await waitFor(() => expect(onClearQuoted).toHaveBeenCalled());
  });

  it('offers quick answers after "/" and two characters, and fills the input with the chosen one', async () => {
    const user = userEvent.setup();
    renderComposer();
    const input = screen.getByTestId('composer-input');
    await user.type(input, '/b');
    expect(screen.queryByTestId('quick-answer-option')).toBeNull();
    await user.type(input, 'o');
    const option = await screen.findByTestId('quick-answer-option');
    expect(option.textContent).toBe('bomdia - Bom dia! Em que posso ajud...');
    await user.keyboard('{Enter}');
    expect(input).toHaveProperty('value', 'Bom dia! Em que posso ajudar?');
    expect(sends()).toEqual([]);
  });

  it('starts a quick reply on the q shortcut, keeping a draft already typed', async () => {
    const user = userEvent.setup();
    renderComposer();
    const input = screen.getByTestId('composer-input');
    input.blur();
    act(() => void window.dispatchEvent(new Event(QUICK_REPLY_EVENT)));
    expect(document.activeElement).toBe(input);
    expect(input).toHaveProperty('value', '/');
    await user.type(input, 'bo');
    expect(await screen.findByTestId('quick-answer-option')).toBeTruthy();
    await user.clear(input);
    await user.type(input, 'rascunho');
    act(() => void window.dispatchEvent(new Event(QUICK_REPLY_EVENT)));
    expect(input).toHaveProperty('value', 'rascunho');
  });

  it("sends a quick message's variables for the server to fill in, and holds back an unknown one, saying which", async () => {
    const user = userEvent.setup();
    renderComposer();
    const input = screen.getByTestId('composer-input');
    await user.type(input, '/errada');
    await user.click(await screen.findByTestId('quick-answer-option'));
    expect(input).toHaveProperty('value', 'Olá {{nme}}, {{ms}}!');
    expect(screen.getByTestId('composer-unknown-variables').textContent).toContain('Unknown variable: {{nme}}.');
    expect(screen.getByTestId('composer-send')).toHaveProperty('disabled', true);
    await user.type(input, '{Enter}');
    expect(sends()).toEqual([]);

    await user.clear(input);
    await user.type(input, '/saudacao');
    await user.click(await screen.findByTestId('quick-answer-option'));
    expect(screen.queryByTestId('composer-unknown-variables')).toBeNull();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(sends()).toEqual([{ body: 'Olá {{firstName}}, {{ms}}!', sign: true }]));

    // A {word} the agent types is plain text, sent as it is.
    await user.type(input, 'Preencha o campo {{x}');
    expect(input).toHaveProperty('value', 'Preencha o campo {x}');
    expect(screen.queryByTestId('composer-unknown-variables')).toBeNull();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(sends()).toHaveLength(2));
    expect(sends()[1]).toEqual({ body: 'Preencha o campo {x}', sign: true });
  });

  it('asks before sending a lone /word that matched no quick answer, and sends it only when told to', async () => {
    const user = userEvent.setup();
    renderComposer();
    const input = screen.getByTestId('composer-input');
    await user.type(input, '/boas{Enter}');
    expect(await screen.findByText('Send "/boas" to the customer?')).toBeTruthy();
    await user.click(screen.getByTestId('confirm-cancel'));
    expect(sends()).toEqual([]);
    expect(input).toHaveProperty('value', '/boas');
    await user.click(screen.getByTestId('composer-send'));
    await user.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(sends()).toEqual([{ body: '/boas', sign: true }]));
    // Text around a slash is an ordinary message.
    await user.type(input, 'veja /boas aqui{Enter}');
    await waitFor(() => expect(sends()).toHaveLength(2));
  });

  it('attaches several files, lets one be removed, and sends the rest', async () => {
    const user = userEvent.setup();
    renderComposer();
    const files = [new File(['a'], 'a.pdf', { type: 'application/pdf' }), new File(['b'], 'b.png', { type: 'image/png' })];
    await user.upload(screen.getByTestId('composer-attach'), files);
    expect(screen.getAllByTestId('composer-file')).toHaveLength(2);
    await user.click(screen.getByLabelText('Remove a.pdf'));
    expect(screen.getAllByTestId('composer-file')).toHaveLength(1);
    await user.click(screen.getByTestId('composer-send'));
    await waitFor(() => expect(sends()).toHaveLength(1));
    const form = sends()[0] as FormData;
    expect((form.getAll('medias') as File[]).map((file) => file.name)).toEqual(['b.png']);
    // No caption typed: each file's name is its body.
    expect(form.getAll('body')).toEqual(['b.png']);
  });

  it('keeps the text and shows the refusal when the server does not send', async () => {
    server.on('POST /messages/5', () => new Response(JSON.stringify({ error: 'ERR_WAPP_NOT_INITIALIZED' }), { status: 400 }));
    const user = userEvent.setup();
    renderComposer();
    const input = screen.getByTestId('composer-input');
    await user.type(input, 'Oi{Enter}');
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'error', text: 'This connection is not started. Check the connections page.' }]));
    expect(input).toHaveProperty('value', 'Oi');
  });

  it('is replaced by a hint when the ticket is not open', () => {
    renderComposer('pending');
    expect(screen.queryByTestId('composer-input')).toBeNull();
    expect(screen.getByTestId('composer-disabled').textContent).toBe('Accept the ticket to reply.');
  });
});
