import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastHost } from '../../components/toast';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { buildContact } from '../../test/build-contact';
import { buildTicket } from '../../test/build-ticket';
import { fakeApi } from '../../test/fake-api';
import { ContactEditForm } from './contact-edit-form';

beforeAll(() => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
});

function renderForm(contact: ReturnType<typeof buildContact>) {
  const onDone = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ToastHost>
        <SessionProvider onSessionEnd={() => undefined}>
          <ContactEditForm contact={contact} ticket={buildTicket(contact.id)} onDone={onDone} />
        </SessionProvider>
      </ToastHost>
    </QueryClientProvider>,
  );
  return onDone;
}

describe("the contact drawer's edit form", () => {
  it('renames a group and sends its id back untouched, though the normaliser alone would refuse it', async () => {
    const group = buildContact(4, { name: 'Grupo Vendas', number: '120363025246125888', isGroup: true });
    const api = fakeApi({ 'PUT /contacts/4': (request) => ({ ...group, ...(request.body as object) }) });
    const onDone = renderForm(group);
    await userEvent.type(screen.getByTestId('contact-name'), ' SP');
    await userEvent.click(screen.getByTestId('contact-save'));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(api.calls('PUT /contacts/4')[0]?.body).toMatchObject({ name: 'Grupo Vendas SP', number: '120363025246125888' });
  });

  it('refuses a new number the normaliser cannot make valid, before calling the server', async () => {
    const api = fakeApi();
    renderForm(buildContact(5));
    const number = screen.getByTestId('contact-number');
    await userEvent.clear(number);
    await userEvent.type(number, '+1 555');
    await userEvent.click(screen.getByTestId('contact-save'));
    expect(await screen.findByText('Too few digits for a phone number: include the area code')).toBeTruthy();
    expect(api.requests).toHaveLength(0);
  });
});
