import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastHost } from '../../components/toast';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { IntegrationDialog } from './integration-dialog';
import { integrationFormDefaults, type Integration } from './integration-form';

beforeAll(() => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const stored = (overrides: Partial<Integration>): Integration => ({
  ...integrationFormDefaults(null),
  id: 4,
  name: 'Bot',
  typebotExpires: 1,
  typebotDelayMessage: 1000,
  signingSecret: '',
  companyId: 1,
  createdAt: '',
  updatedAt: '',
  ...overrides,
});

function server(answer: unknown) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, method: init.method ?? 'GET', body: init.body ? JSON.parse(String(init.body)) : undefined });
      return new Response(JSON.stringify(answer), { status: init.method === 'POST' ? 201 : 200, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

function renderDialog(integration: Integration | null) {
  const onClose = vi.fn();
  const onSecret = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ToastHost>
        <SessionProvider onSessionEnd={() => undefined}>
          <IntegrationDialog integration={integration} onClose={onClose} onSecret={onSecret} />
        </SessionProvider>
      </ToastHost>
    </QueryClientProvider>,
  );
  return { onClose, onSecret };
}

async function fill(testId: string, text: string) {
  await userEvent.click(screen.getByTestId(testId));
  await userEvent.paste(text);
}

async function chooseType(type: string) {
  fireEvent.mouseDown(screen.getByTestId('integration-type'));
  await userEvent.click(await screen.findByTestId(`integration-type-${type}`));
}

// Dialog tests drive MUI under jsdom: slower than the 5 s default on a busy machine.
describe('integration dialog', { timeout: 20_000 }, () => {
  it('asks typebot for name, url and slug before anything is sent', async () => {
    const calls = server({});
    renderDialog(null);
    await chooseType('typebot');
    expect(screen.queryByTestId('integration-projectName')).toBeNull();
    await userEvent.click(screen.getByTestId('integration-save'));
    await waitFor(() => expect(screen.getAllByText('Required')).toHaveLength(3));
    expect(calls).toHaveLength(0);
  });

  it('refuses a name of one character', async () => {
    const calls = server({});
    renderDialog(null);
    await chooseType('n8n');
    await fill('integration-name', 'N');
    await fill('integration-urlN8N', 'https://n8n.example/hook');
    await userEvent.click(screen.getByTestId('integration-save'));
    expect(await screen.findByText('Too Short!')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('saves an n8n integration with the project name set to its name and shows the generated secret once', async () => {
    const secret = 'g'.repeat(32);
    const calls = server(stored({ id: 8, type: 'n8n', name: 'Pedidos', projectName: 'Pedidos', urlN8N: 'https://n8n.example/hook', signingSecret: secret }));
    const { onClose, onSecret } = renderDialog(null);
    await chooseType('n8n');
    await fill('integration-name', 'Pedidos');
    await fill('integration-urlN8N', 'https://n8n.example/hook');
    await userEvent.click(screen.getByTestId('integration-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ url: '/queueIntegration', method: 'POST', body: { type: 'n8n', name: 'Pedidos', projectName: 'Pedidos', urlN8N: 'https://n8n.example/hook' } });
    expect(calls[0]?.body).not.toHaveProperty('signingSecret');
    expect(onSecret).toHaveBeenCalledWith(secret);
  });

  it('refuses a typed signing secret shorter than 16 characters', async () => {
    const calls = server({});
    renderDialog(stored({ type: 'webhook', urlN8N: 'https://hooks.example/in', signingSecret: 'abc••••wxyz' }));
    await fill('integration-signingSecret', 'short');
    await userEvent.click(screen.getByTestId('integration-save'));
    expect(await screen.findByText('Too Short!')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('tests a dialogflow session with the stored key of the integration being edited', async () => {
    const calls = server({ message: 'ok', intent: 'Default Welcome Intent', reply: 'Olá!' });
    renderDialog(stored({ type: 'dialogflow', projectName: 'meu-projeto', jsonContent: '{"ty••••"}', language: 'en' }));
    await userEvent.click(screen.getByTestId('integration-test-session'));
    expect(await screen.findByText('Dialogflow test session succeeded!')).toBeTruthy();
    expect(calls[0]).toEqual({ url: '/queueIntegration/testSession', method: 'POST', body: { id: 4, projectName: 'meu-projeto', jsonContent: '{"ty••••"}', language: 'en' } });
  });

  it('does not test a dialogflow session without a project name', async () => {
    const calls = server({});
    renderDialog(null);
    await userEvent.click(screen.getByTestId('integration-test-session'));
    expect(await screen.findByText('Fill in the project name to test.')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });
});
