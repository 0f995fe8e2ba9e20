import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastHost } from '../../components/toast';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { buildContact } from '../../test/build-contact';
import { ContactModal } from './contact-modal';

beforeAll(() => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function respondWith(status: number, body: unknown) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, method: init.method ?? 'GET', body: init.body ? JSON.parse(String(init.body)) : undefined });
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

function renderModal(props: Partial<Parameters<typeof ContactModal>[0]> = {}) {
  const onClose = vi.fn();
  const onSaved = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ToastHost>
        <SessionProvider onSessionEnd={() => undefined}>
          <ContactModal open onClose={onClose} onSaved={onSaved} {...props} />
        </SessionProvider>
      </ToastHost>
    </QueryClientProvider>,
  );
  return { onClose, onSaved };
}

const saved = buildContact(7, { name: 'Maria Silva', number: '5511999998888' });

describe('contact modal', () => {
  it('refuses a short name, a short number and a bad email without calling the server', async () => {
    const calls = respondWith(201, saved);
    renderModal();
    await userEvent.type(screen.getByTestId('contact-name'), 'A');
    await userEvent.type(screen.getByTestId('contact-number'), '123');
    await userEvent.type(screen.getByTestId('contact-email'), 'nope');
    await userEvent.click(screen.getByTestId('contact-save'));
    expect(await screen.findByText('Too Short!')).toBeTruthy();
    expect(screen.getByText('Too few digits for a phone number: include the area code')).toBeTruthy();
    expect(screen.getByText('Invalid email')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('checks the number with the shared normaliser before sending: a number without its area code is refused', async () => {
    const calls = respondWith(201, saved);
    renderModal({ initialValues: { name: 'Maria Silva' } });
    await userEvent.type(screen.getByTestId('contact-number'), '91234-0002');
    await userEvent.click(screen.getByTestId('contact-save'));
    expect(await screen.findByText(/^Not a valid phone number/)).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it("edits a group without touching its id, which the normaliser alone would refuse", async () => {
    const group = buildContact(9, { name: 'Grupo Vendas', number: '120363025246125888', isGroup: true });
    const calls = respondWith(200, group);
    const { onClose } = renderModal({ contactId: 9 });
    await waitFor(() => expect((screen.getByTestId('contact-number') as HTMLInputElement).value).toBe('120363025246125888'));
    await userEvent.type(screen.getByTestId('contact-name'), ' SP');
    await userEvent.click(screen.getByTestId('contact-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.at(-1)).toMatchObject({ method: 'PUT', url: '/contacts/9', body: { name: 'Grupo Vendas SP', number: '120363025246125888' } });
  });

  it('sends the number as typed (the server normalises it too), with the extra information, then closes', async () => {
    const calls = respondWith(201, saved);
    const { onClose, onSaved } = renderModal({ initialValues: { name: 'Maria Silva' } });
    expect((screen.getByTestId('contact-name') as HTMLInputElement).value).toBe('Maria Silva');
    await userEvent.type(screen.getByTestId('contact-number'), '+55 (11) 99999-8888');
    await userEvent.click(screen.getByTestId('contact-extra-add'));
    const [fieldName, fieldValue] = screen.getByTestId('contact-extra-row').querySelectorAll('input');
    await userEvent.type(fieldName!, 'CPF');
    await userEvent.type(fieldValue!, '123');
    await userEvent.click(screen.getByTestId('contact-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/contacts', body: { name: 'Maria Silva', number: '+55 (11) 99999-8888', email: '', extraInfo: [{ name: 'CPF', value: '123' }] } });
    expect(onSaved).toHaveBeenCalledWith(saved);
    expect(await screen.findByText('Contact saved successfully!')).toBeTruthy();
  });

  it('sends the birthday and the chatbot switch; a number already saved is said and the form stays open', async () => {
    const calls = respondWith(200, { alreadyExists: true, existingContact: saved });
    const { onClose, onSaved } = renderModal({ initialValues: { name: 'Maria Silva', number: '5511999998888' } });
    await userEvent.type(screen.getByTestId('contact-birthday'), '1990-05-17');
    await userEvent.click(screen.getByTestId('contact-disable-bot'));
    await userEvent.click(screen.getByTestId('contact-save'));
    expect(await screen.findByText('A contact with this number already exists.')).toBeTruthy();
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/contacts', body: { birthday: '1990-05-17', disableBot: true } });
    expect(onClose).not.toHaveBeenCalled();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('shows the duplicate-contact error and stays open', async () => {
    respondWith(409, { error: 'ERR_DUPLICATED_CONTACT' });
    const { onClose } = renderModal({ initialValues: { name: 'Maria Silva', number: '5511999998888' } });
    await userEvent.click(screen.getByTestId('contact-save'));
    expect(await screen.findByText('A contact with this number already exists.')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });
});
