import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rooms } from './rooms.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const here = path.dirname(fileURLToPath(import.meta.url));
const nodeScript = path.resolve(here, '../../test/realtime-node.ts');
// Each run gets its own stream, so parallel runs never hear each other.
const streamName = `atende:test:socket.io:${randomBytes(6).toString('hex')}`;

interface RealtimeNode {
  port: number;
  child: ChildProcessWithoutNullStreams;
  emit(roomsToReach: string[], event: string, payload: unknown): Promise<void>;
  /** Publishes, waits for the transport's flush, and dies (SIGKILL); resolves when it has. */
  emitAndDie(roomsToReach: string[], event: string, payload: unknown): Promise<void>;
  stop(): Promise<void>;
}

async function startNode(): Promise<RealtimeNode> {
  const child = spawn(process.execPath, ['--import', 'tsx', nodeScript], {
    env: { ...process.env, REDIS_URL, REALTIME_STREAM: streamName },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const nextLine = async (): Promise<string> => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`realtime node exited: ${stderr}`);
    return value;
  };
  const first = await nextLine();
  const match = /^port (\d+)$/.exec(first);
  if (!match) throw new Error(`unexpected output from realtime node: ${first} ${stderr}`);
  return {
    port: Number(match[1]),
    child,
    async emit(roomsToReach, event, payload) {
      child.stdin.write(`emit ${JSON.stringify({ rooms: roomsToReach, event, payload })}\n`);
      expect(await nextLine()).toBe('emitted');
    },
    async emitAndDie(roomsToReach, event, payload) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.write(`emit-and-die ${JSON.stringify({ rooms: roomsToReach, event, payload })}\n`);
      await exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.write('close\n');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    },
  };
}

async function connected(port: number, token: string): Promise<ClientSocket> {
  const socket = connectClient(`http://127.0.0.1:${port}`, {
    transports: ['websocket'],
    query: { token },
    reconnection: false,
    forceNew: true,
  });
  // Joins and listeners wait for `ready`, as the spec's client does.
  await new Promise<void>((resolve, reject) => {
    socket.once('ready', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

describe.runIf(process.env.TEST_DATABASE === 'postgres')('realtime fan-out across processes (Redis streams)', () => {
  const nodes: RealtimeNode[] = [];
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    nodes.push(...(await Promise.all([startNode(), startNode()])));
  });

  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await Promise.all(nodes.map((node) => node.stop()));
    const redis = createClient({ url: REDIS_URL });
    await redis.connect();
    await redis.del(streamName);
    await redis.close();
  });

  it('delivers an event published on one process to a socket on the other, and only within the company', async () => {
    const [first, second] = nodes as [RealtimeNode, RealtimeNode];
    const onFirstA = await connected(first.port, 'token-a');
    const onFirstB = await connected(first.port, 'token-b');
    sockets.push(onFirstA, onFirstB);
    const receivedByA: unknown[] = [];
    const receivedByB: unknown[] = [];
    onFirstA.onAny((event: string, payload: unknown) => receivedByA.push({ event, payload }));
    onFirstB.onAny((event: string, payload: unknown) => receivedByB.push({ event, payload }));

    const arrived = new Promise<unknown>((resolve) => onFirstA.once('company-1-ticket', resolve));
    await second.emit([rooms.company(1), rooms.user(1, 11)], 'company-1-ticket', { action: 'update', ticket: { id: 9 } });
    await expect(arrived).resolves.toEqual({ action: 'update', ticket: { id: 9 } });

    // Give any stray copy time to reach company B's socket before asserting it got nothing.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receivedByA).toEqual([{ event: 'company-1-ticket', payload: { action: 'update', ticket: { id: 9 } } }]);
    expect(receivedByB).toEqual([]);
  });

  it('still delivers an event whose process was killed right after flushing it (what an ingest waits for before it answers)', async () => {
    const [first] = nodes as [RealtimeNode];
    const doomed = await startNode();
    nodes.push(doomed);
    const socket = await connected(first.port, 'token-a');
    sockets.push(socket);
    const arrived = new Promise<unknown>((resolve) => socket.once('company-1-appMessage', resolve));
    await doomed.emitAndDie([rooms.company(1)], 'company-1-appMessage', { action: 'create', message: { id: 77 } });
    expect(doomed.child.signalCode).toBe('SIGKILL');
    await expect(arrived).resolves.toEqual({ action: 'create', message: { id: 77 } });
  });
});
