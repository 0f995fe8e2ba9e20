import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { afterEach, describe, expect, it } from 'vitest';
import { accessChannel, createAccessChanges, type AccessChange, type AccessChanges } from './access-changes.js';
import { usePostgres } from '../../test/test-database.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const failures: string[] = [];
const onError = (_error: unknown, what: string) => void failures.push(what);
const opened: AccessChanges[] = [];

async function open(options: { redisUrl?: string; prefix: string }): Promise<{ access: AccessChanges; heard: AccessChange[] }> {
  const access = await createAccessChanges({ ...options, onError });
  opened.push(access);
  const heard: AccessChange[] = [];
  access.onChange((change) => void heard.push(change));
  return { access, heard };
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((access) => access.close()));
  failures.length = 0;
});

describe('access changes on one node', () => {
  it('runs the handlers in order before changed() resolves, and a failing one does not stop the next', async () => {
    const access = await createAccessChanges({ prefix: 'atende', onError });
    opened.push(access);
    const order: string[] = [];
    access.onChange(() => {
      order.push('sessions');
      throw new Error('boom');
    });
    access.onChange(async () => {
      await sleep(10);
      order.push('sockets');
    });
    await access.changed({ companyId: 3, userIds: [7, 7] });
    expect(order).toEqual(['sessions', 'sockets']);
    expect(failures).toEqual(['access change handler failed']);
  });
});

describe.runIf(usePostgres || process.env.REDIS_URL)('access changes across nodes (Redis pub/sub)', () => {
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

  it('reaches every node of the install once (the origin handles it locally), never another install', async () => {
    const prefix = `atende-test-${randomBytes(6).toString('hex')}`;
    const nodeA = await open({ redisUrl, prefix });
    const nodeB = await open({ redisUrl, prefix });
    const otherInstall = await open({ redisUrl, prefix: `${prefix}-other` });

    await nodeA.access.changed({ companyId: 4, userIds: [9] });
    await nodeA.access.changed({ companyId: 5 });
    for (let waited = 0; nodeB.heard.length < 2 && waited < 3000; waited += 20) await sleep(20);
    await sleep(100);
    expect(nodeA.heard).toEqual([{ companyId: 4, userIds: [9] }, { companyId: 5 }]);
    expect(nodeB.heard).toEqual([{ companyId: 4, userIds: [9] }, { companyId: 5 }]);
    expect(otherInstall.heard).toEqual([]);
  });

  it('ignores a malformed message on the channel', async () => {
    const prefix = `atende-test-${randomBytes(6).toString('hex')}`;
    const node = await open({ redisUrl, prefix });
    const raw = createClient({ url: redisUrl });
    await raw.connect();
    await raw.publish(accessChannel(prefix), 'not json');
    await raw.publish(accessChannel(prefix), JSON.stringify({ from: 'elsewhere', change: { companyId: '1 or 1=1' } }));
    await raw.publish(accessChannel(prefix), JSON.stringify({ from: 'elsewhere', change: { companyId: 6, userIds: [1] } }));
    await raw.close();
    for (let waited = 0; node.heard.length < 1 && waited < 3000; waited += 20) await sleep(20);
    expect(node.heard).toEqual([{ companyId: 6, userIds: [1] }]);
    expect(failures).toEqual(['unreadable access change']);
  });
});
