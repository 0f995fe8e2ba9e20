import type { PresentedQueue } from '@atende/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastHost } from '../../components/toast';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { buildQueue } from '../../test/build-queue';
import type { QueueOption } from './option-tree';
import { QueueModal } from './queue-modal';
import { QUEUE_COLORS } from './queue-colors';
import { QueueOptionDialog } from './queue-option-dialog';

beforeAll(() => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const saved: PresentedQueue = buildQueue(3, { name: 'Financeiro', color: QUEUE_COLORS[1], orderQueue: 2, companyId: 1 });

/** GETs answer `gets[url]` (settings: scheduleType); writes answer `write`. */
function server(write: { status: number; body: unknown }, gets: Record<string, unknown> = {}) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      calls.push({ url, method, body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body });
      if (method === 'GET') return Response.json(gets[url.split('?')[0] ?? ''] ?? []);
      return new Response(JSON.stringify(write.body), { status: write.status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return { writes: () => calls.filter((call) => call.method !== 'GET') };
}

function wrap(children: React.ReactNode) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <ToastHost>
        <SessionProvider onSessionEnd={() => undefined}>{children}</SessionProvider>
      </ToastHost>
    </QueryClientProvider>,
  );
}

async function fill(testId: string, text: string) {
  await userEvent.clear(screen.getByTestId(testId));
  await userEvent.click(screen.getByTestId(testId));
  await userEvent.paste(text);
}

// Dialog tests drive MUI under jsdom: slower than the 5 s default on a busy machine.
describe('queue modal', { timeout: 20_000 }, () => {
  it('refuses a one-letter name and a colour under 3 characters without calling the server', async () => {
    const { writes } = server({ status: 201, body: saved });
    wrap(<QueueModal queue={null} otherColors={[]} onClose={vi.fn()} />);
    await fill('queue-name', 'F');
    await fill('queue-color', '#a');
    await userEvent.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(screen.getAllByText('Too Short!')).toHaveLength(2));
    expect(writes()).toHaveLength(0);
  });

  it('proposes a preset colour no other queue uses, creates the queue and stays open on its chatbot tab', async () => {
    const { writes } = server({ status: 201, body: saved });
    const onClose = vi.fn();
    wrap(<QueueModal queue={null} otherColors={[QUEUE_COLORS[0]]} onClose={onClose} />);
    expect((screen.getByTestId('queue-color') as HTMLInputElement).value).toBe(QUEUE_COLORS[1]);
    await userEvent.click(screen.getByTestId('queue-tab-options'));
    expect(screen.getByText('Save the queue: this window stays open here to build its chatbot options.')).toBeTruthy();
    await userEvent.click(screen.getByTestId('queue-tab-data'));
    await fill('queue-name', 'Financeiro');
    await fill('queue-order', '2');
    await fill('queue-greetingMessage', 'Olá {{firstName}}');
    await userEvent.click(screen.getByTestId('queue-save'));
    // Saved: the dialog stays open on the Chatbot tab with the new queue's option editor.
    await screen.findByTestId('queue-options-editor');
    expect(screen.getByTestId('queue-tab-options').getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('Edit queue')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    // A second save updates the queue just created and closes the dialog.
    await userEvent.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(writes().map((write) => [write.method, write.url])).toEqual([
      ['POST', '/queue'],
      ['PUT', '/queue/3'],
    ]);
    const [call] = writes();
    expect(call).toMatchObject({ url: '/queue', method: 'POST', body: { name: 'Financeiro', color: QUEUE_COLORS[1], orderQueue: 2, greetingMessage: 'Olá {{firstName}}' } });
    // Without the plan flags the pickers are hidden and the stored values are left alone.
    expect(call?.body).not.toHaveProperty('integrationId');
    expect(call?.body).not.toHaveProperty('promptId');
    // No hours tab (scheduleType is not 'queue'): no schedules sent.
    expect(call?.body).not.toHaveProperty('schedules');
  });

  it('inserts variables with the chips into the text last visited, and holds back a text with an unknown one', async () => {
    const { writes } = server({ status: 200, body: saved });
    const onClose = vi.fn();
    wrap(<QueueModal queue={saved} otherColors={[]} onClose={onClose} />);
    await fill('queue-outOfHoursMessage', 'Fechado, ');
    await userEvent.click(screen.getByRole('button', { name: 'Insert the variable First name' }));
    await userEvent.click(screen.getByRole('button', { name: 'Insert the variable Protocol' }));
    expect((screen.getByTestId('queue-outOfHoursMessage') as HTMLTextAreaElement).value).toBe('Fechado, {{firstName}}{{protocol}}');
    await fill('queue-greetingMessage', 'Olá {{cliente}}');
    expect(screen.getByText('Unknown variable: {{cliente}}. Use one of the variables below or remove the braces.')).toBeTruthy();
    await userEvent.click(screen.getByTestId('queue-save'));
    expect(writes()).toHaveLength(0);
    await fill('queue-greetingMessage', 'Olá {nome}');
    await userEvent.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(writes()[0]?.body).toMatchObject({ greetingMessage: 'Olá {nome}', outOfHoursMessage: 'Fechado, {{firstName}}{{protocol}}' });
  });

  it('shows the colour-taken error and stays open', async () => {
    server({ status: 409, body: { error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' } });
    const onClose = vi.fn();
    wrap(<QueueModal queue={saved} otherColors={[]} onClose={onClose} />);
    await userEvent.click(screen.getByTestId('queue-save'));
    expect(await screen.findByText('This colour is already used by another queue.')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('offers the attendance-hours tab when scheduleType is queue and sends the week', async () => {
    const { writes } = server({ status: 200, body: saved }, { '/settings': [{ key: 'scheduleType', value: 'queue' }] });
    const onClose = vi.fn();
    wrap(<QueueModal queue={saved} otherColors={[]} onClose={onClose} />);
    await userEvent.click(await screen.findByTestId('queue-tab-hours'));
    await userEvent.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const body = writes()[0]?.body as { schedules: { weekdayEn: string; startTime: string; endTime: string }[] };
    expect(body.schedules).toHaveLength(7);
    expect(body.schedules[0]).toMatchObject({ weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' });
  });

  it('takes a second interval a day', { timeout: 60_000 }, async () => {
    const { writes } = server({ status: 200, body: saved }, { '/settings': [{ key: 'scheduleType', value: 'queue' }] });
    const onClose = vi.fn();
    wrap(<QueueModal queue={saved} otherColors={[]} onClose={onClose} />);
    await userEvent.click(await screen.findByTestId('queue-tab-hours'));
    // Typed as the mask leaves them (typing key by key is slow under jsdom).
    fireEvent.change(screen.getByTestId('queue-monday-end'), { target: { value: '1200' } });
    fireEvent.change(screen.getByTestId('queue-monday-startB'), { target: { value: '1300' } });
    fireEvent.change(screen.getByTestId('queue-monday-endB'), { target: { value: '1800' } });
    await userEvent.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect((writes()[0]?.body as { schedules: unknown[] }).schedules[0]).toEqual({ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '12:00', startTimeB: '13:00', endTimeB: '18:00' });
  });

  it("uploads the greeting's file after saving the queue, and removes a stored one", async () => {
    const { writes } = server({ status: 200, body: { ...saved, mediaPath: 'boas-vindas.png', mediaName: 'boas-vindas.png' } });
    const onClose = vi.fn();
    wrap(<QueueModal queue={saved} otherColors={[]} onClose={onClose} />);
    await userEvent.upload(screen.getByTestId('queue-attachment-file'), new File(['x'], 'boas-vindas.png', { type: 'image/png' }));
    expect(screen.getByTestId('queue-attachment').textContent).toContain('boas-vindas.png');
    await userEvent.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(writes().map((write) => [write.method, write.url])).toEqual([
      ['PUT', '/queue/3'],
      ['POST', '/queue/3/media-upload'],
    ]);
  });
});

describe('queue modal with a stored greeting file', { timeout: 20_000 }, () => {
  it('deletes the file the user removed', async () => {
    const stored = { ...saved, mediaPath: 'antigo.pdf', mediaName: 'antigo.pdf' };
    const { writes } = server({ status: 200, body: stored });
    const onClose = vi.fn();
    wrap(<QueueModal queue={stored} otherColors={[]} onClose={onClose} />);
    await userEvent.click(screen.getByLabelText('Remove file'));
    await userEvent.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(writes().map((write) => [write.method, write.url])).toEqual([
      ['PUT', '/queue/3'],
      ['DELETE', '/queue/3/media-upload'],
    ]);
  });
});

function option(id: number, key: string, parentId: number | null, children: QueueOption[] = []): QueueOption {
  return { id, queueId: 3, parentId, title: `T${id}`, message: '', option: key, mediaName: null, mediaUrl: null, children, createdAt: '', updatedAt: '' };
}

describe('queue option dialog', { timeout: 20_000 }, () => {
  it('adds a child under its parent with the next free number of that level', async () => {
    const parent = option(10, '1', null, [option(11, '1', 10)]);
    const { writes } = server({ status: 201, body: option(12, '2', 10) });
    const onClose = vi.fn();
    wrap(<QueueOptionDialog queueId={3} tree={[parent]} editing={{ mode: 'add', parent }} onClose={onClose} />);
    expect((screen.getByTestId('queue-option-number') as HTMLInputElement).value).toBe('2');
    await fill('queue-option-title', 'Boleto vencido');
    await fill('queue-option-message', 'Enviamos a segunda via.');
    await userEvent.click(screen.getByTestId('queue-option-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(writes()[0]).toEqual({ url: '/queue-options', method: 'POST', body: { option: '2', title: 'Boleto vencido', message: 'Enviamos a segunda via.', queueId: 3, parentId: 10 } });
  });

  it('refuses an empty title and a number the customer cannot type', async () => {
    const { writes } = server({ status: 201, body: {} });
    wrap(<QueueOptionDialog queueId={3} tree={[]} editing={{ mode: 'add', parent: null }} onClose={vi.fn()} />);
    await fill('queue-option-number', '0');
    await userEvent.click(screen.getByTestId('queue-option-save'));
    expect(await screen.findByText('Required')).toBeTruthy();
    expect(screen.getByText('Invalid number')).toBeTruthy();
    expect(writes()).toHaveLength(0);
  });

  it('edits an option with PUT, sending only its own fields', async () => {
    const node = option(11, '1', 10);
    const { writes } = server({ status: 200, body: { ...node, title: 'Novo' } });
    const onClose = vi.fn();
    wrap(<QueueOptionDialog queueId={3} tree={[option(10, '1', null, [node])]} editing={{ mode: 'edit', node }} onClose={onClose} />);
    await fill('queue-option-title', 'Novo');
    await userEvent.click(screen.getByTestId('queue-option-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(writes()[0]).toEqual({ url: '/queue-options/11', method: 'PUT', body: { option: '1', title: 'Novo', message: '' } });
  });
});
