import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { buildConnection } from '../../test/build-connection';
import { buildQueue } from '../../test/build-queue';
import { buildTicket } from '../../test/build-ticket';
import { buildUser } from '../../test/build-user';
import { fakeApi } from '../../test/fake-api';
import { keptQueue, TransferDialog, transferQueueHint } from './transfer-dialog';

const sales = { id: 1, name: 'Vendas', color: '#111111' };
const support = { id: 2, name: 'Suporte', color: '#222222' };

beforeAll(async () => {
  await setupI18n().changeLanguage('pt');
});

describe('the transfer form keeps the ticket in its queue unless another is chosen', () => {
  it('keeps the chosen queue, else the ticket’s, when the user serves it (a user without queues serves any)', () => {
    expect(keptQueue(null, ['', 2])).toBe(2);
    expect(keptQueue({ queues: [] }, ['', 2])).toBe(2);
    expect(keptQueue({ queues: [sales, support] }, [1, 2])).toBe(1);
    expect(keptQueue({ queues: [sales] }, ['', 2])).toBe('');
    expect(keptQueue(null, ['', null])).toBe('');
  });

  it('says why the button is off', () => {
    expect(transferQueueHint(true, null, 2)).toBeNull();
    expect(transferQueueHint(false, { queues: [sales] }, 2)).toBe('queueNotServed');
    expect(transferQueueHint(false, null, null)).toBe('queueRequired');
  });

  it('transfers to a user at once with the ticket’s queue; a user outside it is told to choose one', { timeout: 20_000 }, async () => {
    fakeApi({
      'GET /users': () => ({ users: [buildUser(7, { name: 'Ana', queues: [support] }), buildUser(8, { name: 'Bruno', queues: [sales] })], hasMore: false, count: 2 }),
      'GET /queue': () => [buildQueue(1, { name: 'Vendas' }), buildQueue(2, { name: 'Suporte' })],
      'GET /whatsapp': () => [buildConnection(4)],
    });
    const onTransfer = vi.fn(() => Promise.resolve());
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <SessionProvider onSessionEnd={() => undefined}>
          <TransferDialog ticket={buildTicket(5, { queueId: 2, whatsappId: 4 })} onClose={() => undefined} onTransfer={onTransfer} />
        </SessionProvider>
      </QueryClientProvider>,
    );
    const dialog = await screen.findByTestId('transfer-dialog');
    const submit = within(dialog).getByTestId('transfer-submit');
    await waitFor(() => expect(submit).toHaveProperty('disabled', false));

    await user.type(within(dialog).getByTestId('transfer-user'), 'Bru');
    await user.click(await screen.findByRole('option', { name: 'Bruno' }));
    expect(submit).toHaveProperty('disabled', true);
    expect(dialog.textContent).toContain('Bruno não atende a fila atual: escolha uma das filas desse usuário');

    await user.clear(within(dialog).getByTestId('transfer-user'));
    await user.type(within(dialog).getByTestId('transfer-user'), 'Ana');
    await user.click(await screen.findByRole('option', { name: 'Ana' }));
    await waitFor(() => expect(submit).toHaveProperty('disabled', false));
    await user.click(submit);
    await waitFor(() => expect(onTransfer).toHaveBeenCalledWith({ userId: 7, queueId: 2, whatsappId: 4 }));
  });
});
