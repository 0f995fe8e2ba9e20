import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createWritePacer } from './write-pacer.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A loopback connection whose server end counts the rounds that sent its writes (its uncorks). */
async function pacedPair(pacer: ReturnType<typeof createWritePacer>) {
  let serverEnd: Socket | null = null;
  const server: Server = createServer((socket) => {
    serverEnd = socket;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = connect((server.address() as { port: number }).port, '127.0.0.1');
  let received = '';
  client.on('data', (chunk) => (received += chunk.toString()));
  while (!serverEnd) await nextTurn();
  const sender = serverEnd as Socket;
  pacer.pace(sender);
  const rounds = { count: 0 };
  const uncork = sender.uncork.bind(sender);
  sender.uncork = () => {
    rounds.count += 1;
    uncork();
  };
  return {
    sender,
    rounds,
    received: () => received,
    close: () => {
      client.destroy();
      sender.destroy();
      server.close();
    },
  };
}

let closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers) close();
  closers = [];
});

describe('write pacer', () => {
  it('sends a lone write at the end of its tick, and what several sockets get in one tick in one round each', async () => {
    const pacer = createWritePacer(60_000);
    const [a, b] = [await pacedPair(pacer), await pacedPair(pacer)];
    closers.push(a.close, b.close);
    a.sender.write('one,');
    a.sender.write('two,');
    b.sender.write('only,');
    await nextTurn();
    expect([a.rounds.count, b.rounds.count]).toEqual([1, 1]);
    for (let turns = 0; (a.received() !== 'one,two,' || b.received() !== 'only,') && turns < 1000; turns++) await nextTurn();
    expect([a.received(), b.received()]).toEqual(['one,two,', 'only,']);
  });

  it('holds writes made soon after a round for the next round, in order', async () => {
    const pacer = createWritePacer(1000);
    const pair = await pacedPair(pacer);
    closers.push(pair.close);
    pair.sender.write('0,');
    await nextTurn();
    expect(pair.rounds.count).toBe(1);
    for (let i = 1; i <= 5; i++) {
      pair.sender.write(`${i},`);
      await nextTurn();
    }
    // Five writes in five turns of the loop, all within the interval: none sent yet.
    expect(pair.rounds.count).toBe(1);
    while (pair.received() !== '0,1,2,3,4,5,') await new Promise((resolve) => setTimeout(resolve, 10));
    expect(pair.rounds.count).toBe(2);
  });
});
