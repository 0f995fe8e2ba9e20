import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createWritePacer, type WritePacer } from './write-pacer.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A loopback connection whose server end is driven like an Engine.IO socket: packets
 * wait in `writeBuffer` and `flush` writes them all to the TCP socket. Counts the
 * rounds that sent them (the flushes the pacer let through).
 */
async function pacedPair(pacer: WritePacer) {
  let serverEnd: Socket | null = null;
  const server: Server = createServer((socket) => {
    serverEnd = socket;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = connect((server.address() as { port: number }).port, '127.0.0.1');
  let received = '';
  client.on('data', (chunk) => (received += chunk.toString()));
  while (!serverEnd) await nextTurn();
  const tcp = serverEnd as Socket;
  const rounds = { count: 0 };
  const connection = {
    writeBuffer: [] as string[],
    flush() {
      rounds.count += 1;
      for (const packet of connection.writeBuffer.splice(0)) tcp.write(packet);
    },
  };
  pacer.pace(connection, tcp);
  return {
    /** What Engine.IO's sendPacket does: queue the packet, then flush. */
    send(packet: string) {
      connection.writeBuffer.push(packet);
      connection.flush();
    },
    flushEmpty: () => connection.flush(),
    rounds,
    received: () => received,
    close: () => {
      client.destroy();
      tcp.destroy();
      server.close();
    },
  };
}

let closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers) close();
  closers = [];
});

async function until(done: () => boolean): Promise<void> {
  for (let turns = 0; !done() && turns < 1000; turns++) await new Promise((resolve) => setTimeout(resolve, 2));
}

describe('write pacer', () => {
  it("says when what the sockets were given is written: at once when nothing waits, else after the round that sends it", async () => {
    const pacer = createWritePacer(50);
    const pair = await pacedPair(pacer);
    closers.push(pair.close);
    await pacer.sent();
    pair.send('a');
    await until(() => pair.received() === 'a');
    // Within the interval of the last round: the next packet waits for the next round, and so does `sent`.
    pair.send('b');
    expect(pair.rounds.count).toBe(1);
    let sentSeen = false;
    const sent = pacer.sent().then(() => {
      sentSeen = true;
      // The round's flush ran before `sent` resolved.
      expect(pair.rounds.count).toBe(2);
    });
    await nextTurn();
    expect(sentSeen).toBe(false);
    await sent;
    expect(sentSeen).toBe(true);
  });

  it('sends a lone packet at the end of its tick, and what several sockets get in one tick in one round each', async () => {
    const pacer = createWritePacer(60_000);
    const [a, b] = [await pacedPair(pacer), await pacedPair(pacer)];
    closers.push(a.close, b.close);
    a.send('one,');
    a.send('two,');
    b.send('only,');
    expect([a.rounds.count, b.rounds.count]).toEqual([0, 0]);
    await nextTurn();
    expect([a.rounds.count, b.rounds.count]).toEqual([1, 1]);
    await until(() => a.received() === 'one,two,' && b.received() === 'only,');
    expect([a.received(), b.received()]).toEqual(['one,two,', 'only,']);
  });

  it('holds packets given soon after a round for the next round, in order, and sends them all in that round', async () => {
    const pacer = createWritePacer(300);
    const pair = await pacedPair(pacer);
    closers.push(pair.close);
    pair.send('0,');
    await nextTurn();
    expect(pair.rounds.count).toBe(1);
    for (let i = 1; i <= 5; i++) {
      pair.send(`${i},`);
      await nextTurn();
    }
    // Five packets in five turns of the loop, all within the interval: none sent yet.
    expect(pair.rounds.count).toBe(1);
    expect(pair.received()).toBe('0,');
    await until(() => pair.received() === '0,1,2,3,4,5,');
    expect(pair.received()).toBe('0,1,2,3,4,5,');
    expect(pair.rounds.count).toBe(2);
  });

  it('schedules no round for a flush with nothing to send', async () => {
    const pacer = createWritePacer(0);
    const pair = await pacedPair(pacer);
    closers.push(pair.close);
    pair.flushEmpty();
    await nextTurn();
    expect(pair.rounds.count).toBe(0);
  });
});
