import type { PresentedQueue } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { buildQueue } from '../../test/build-queue';
import { freeQueueColor, isCssHexColor, QUEUE_COLORS } from './queue-colors';
import { applyQueueEvent, byQueueOrder } from './queues-queries';

function queue(id: number, name: string, orderQueue: number | null): PresentedQueue {
  return buildQueue(id, { name, color: `#00000${id}`, orderQueue, companyId: 1 });
}

describe('queue list', () => {
  it('orders as the server does: orderQueue first, queues without one last, then by name', () => {
    const list = [queue(1, 'Zeta', null), queue(2, 'Beta', 2), queue(3, 'Alfa', 2), queue(4, 'Gama', 1), queue(5, 'Alfa', null)];
    expect([...list].sort(byQueueOrder).map((q) => q.id)).toEqual([4, 3, 2, 5, 1]);
  });

  it('upserts a created or updated queue in its place and removes a deleted one', () => {
    const list = [queue(1, 'Vendas', 1), queue(2, 'Suporte', 2)];
    const created = applyQueueEvent(list, { action: 'create', queue: queue(3, 'Financeiro', 0) });
    expect(created.map((q) => q.id)).toEqual([3, 1, 2]);
    const moved = applyQueueEvent(created, { action: 'update', queue: { ...queue(1, 'Vendas', 9), greetingMessage: 'Olá' } });
    expect(moved.map((q) => q.id)).toEqual([3, 2, 1]);
    expect(moved.find((q) => q.id === 1)?.greetingMessage).toBe('Olá');
    expect(moved).toHaveLength(3);
    // Socket payloads may carry the id as a string.
    expect(applyQueueEvent(moved, { action: 'delete', queueId: '2' as unknown as number }).map((q) => q.id)).toEqual([3, 1]);
  });
});

describe('queue colours', () => {
  it('offers 50 preset colours and proposes one the other queues do not use', () => {
    expect(new Set(QUEUE_COLORS).size).toBe(50);
    expect(freeQueueColor([])).toBe(QUEUE_COLORS[0]);
    expect(freeQueueColor([QUEUE_COLORS[0].toUpperCase(), QUEUE_COLORS[1]])).toBe(QUEUE_COLORS[2]);
    expect(freeQueueColor([...QUEUE_COLORS])).toBe(QUEUE_COLORS[0]);
  });

  it('paints a swatch only for a CSS hex colour', () => {
    expect(isCssHexColor('#abc')).toBe(true);
    expect(isCssHexColor(' #A1B2C3 ')).toBe(true);
    expect(isCssHexColor('#a1b2c3d4')).toBe(true);
    expect(isCssHexColor('red')).toBe(false);
    expect(isCssHexColor('#12345')).toBe(false);
  });
});
