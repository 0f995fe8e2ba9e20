import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastHost } from '../../components/toast';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { buildQueue } from '../../test/build-queue';
import { PromptDialog } from './prompt-dialog';
import type { Prompt } from './prompt-form';

beforeAll(() => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const queues = [buildQueue(2, { name: 'Suporte', color: '#f7a1a1', orderQueue: 1 }), buildQueue(5, { name: 'Vendas', color: '#f7c5a1', orderQueue: 2 })];

const stored: Prompt = {
  id: 9,
  name: 'Atendimento IA',
  prompt: 'Você é um assistente. '.repeat(4),
  model: 'gpt-4o-mini',
  maxTokens: 300,
  temperature: 0.7,
  maxMessages: 5,
  apiKey: 'sk-••••abcd',
  queueId: 2,
  queue: { id: 2, name: 'Suporte' },
  companyId: 1,
  createdAt: '',
  updatedAt: '',
};

/** GET /queue answers the queues; writes answer `answer`. Records every call. */
function server(answer: unknown = stored) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      calls.push({ url, method, body: init.body ? JSON.parse(String(init.body)) : undefined });
      const body = method === 'GET' && url.startsWith('/queue') ? queues : answer;
      return new Response(JSON.stringify(body), { status: method === 'POST' ? 201 : 200, headers: { 'content-type': 'application/json' } });
    }),
  );
  return { writes: () => calls.filter((call) => call.method !== 'GET') };
}

function renderDialog(prompt: Prompt | null) {
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ToastHost>
        <SessionProvider onSessionEnd={() => undefined}>
          <PromptDialog prompt={prompt} onClose={onClose} />
        </SessionProvider>
      </ToastHost>
    </QueryClientProvider>,
  );
  return { onClose };
}

/** Long texts are pasted: typing them key by key is slow under jsdom. */
async function fill(testId: string, text: string) {
  await userEvent.click(screen.getByTestId(testId));
  await userEvent.paste(text);
}

async function chooseQueue(id: number) {
  fireEvent.mouseDown(screen.getByTestId('prompt-queue'));
  await userEvent.click(await screen.findByTestId(`prompt-queue-${id}`));
}

// Dialog tests drive MUI under jsdom: slower than the 5 s default on a busy machine.
describe('prompt dialog', { timeout: 20_000 }, () => {
  it('saves nothing without a sector and says so', async () => {
    const { writes } = server();
    renderDialog(null);
    await fill('prompt-name', 'Vendas IA');
    await fill('prompt-prompt', 'x'.repeat(50));
    await fill('prompt-apiKey', 'sk-123');
    await userEvent.click(screen.getByTestId('prompt-save'));
    // On the field and as a toast.
    await waitFor(() => expect(screen.getAllByText("Choose the prompt's sector.")).toHaveLength(2));
    expect(writes()).toHaveLength(0);
  });

  it('refuses a short name and a prompt under 50 characters', async () => {
    const { writes } = server();
    renderDialog(null);
    await fill('prompt-name', 'IA');
    await fill('prompt-prompt', 'curto demais');
    await chooseQueue(5);
    await userEvent.click(screen.getByTestId('prompt-save'));
    await waitFor(() => expect(screen.getAllByText('Too Short!')).toHaveLength(2));
    expect(writes()).toHaveLength(0);
  });

  it('creates a prompt with the spec defaults and the chosen sector', async () => {
    const { writes } = server({ ...stored, id: 10 });
    const { onClose } = renderDialog(null);
    await fill('prompt-name', 'Vendas IA');
    await fill('prompt-prompt', 'y'.repeat(60));
    await fill('prompt-apiKey', 'sk-live-123');
    await chooseQueue(5);
    await userEvent.click(screen.getByTestId('prompt-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(writes()).toEqual([
      {
        url: '/prompt',
        method: 'POST',
        body: { name: 'Vendas IA', prompt: 'y'.repeat(60), model: 'gpt-3.5-turbo-1106', maxTokens: 100, temperature: 1, maxMessages: 10, apiKey: 'sk-live-123', queueId: 5 },
      },
    ]);
  });

  it('shows the stored key masked and sends the mask back unchanged, so the server keeps the key', async () => {
    const { writes } = server();
    const { onClose } = renderDialog(stored);
    const key = screen.getByTestId('prompt-apiKey') as HTMLInputElement;
    expect(key.value).toBe('sk-••••abcd');
    expect(key.type).toBe('password');
    await userEvent.clear(screen.getByTestId('prompt-temperature'));
    await userEvent.type(screen.getByTestId('prompt-temperature'), '0.3');
    await userEvent.click(screen.getByTestId('prompt-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(writes()[0]).toMatchObject({ url: '/prompt/9', method: 'PUT', body: { apiKey: 'sk-••••abcd', temperature: 0.3, queueId: 2, model: 'gpt-4o-mini' } });
  });

  it('keeps the temperature between 0 and 1', async () => {
    const { writes } = server();
    renderDialog(stored);
    await userEvent.clear(screen.getByTestId('prompt-temperature'));
    await userEvent.type(screen.getByTestId('prompt-temperature'), '1.5');
    await userEvent.click(screen.getByTestId('prompt-save'));
    expect(await screen.findByText('Invalid number')).toBeTruthy();
    expect(writes()).toHaveLength(0);
  });
});
