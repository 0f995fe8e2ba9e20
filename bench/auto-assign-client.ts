/**
 * The agents of the auto-assignment figure (bench/auto-assign.ts), in a child process so
 * that receiving the company's ticket events does not take the CPU of the bench or the
 * server: one websocket per agent, speaking the Socket.IO wire protocol over a bare `ws`
 * socket as fanout-client.ts does. Every waiting ticket reaches all the queue's agents,
 * so only frames of the ticket event that carry `"status":"open"` are decoded; for each
 * ticket the client records the wall-clock time its own agent first got it open.
 */
import WebSocket from 'ws';
import { wallClock } from './fanout.js';

export interface AssignAgentLogin {
  userId: number;
  token: string;
}

/** Parent → client: connect and listen; stop and report. */
export type AssignClientCommand = { type: 'start'; url: string; agents: AssignAgentLogin[]; event: string } | { type: 'stop' };
/** Client → parent: all sockets connected, then per ticket [ticketId, userId, wall-clock ms]. */
export type AssignClientReport = { type: 'ready' } | { type: 'assigned'; assigned: [number, number, number][] };

const OPEN = Buffer.from('"status":"open"');
const assigned = new Map<number, [number, number, number]>();
const sockets: WebSocket[] = [];
/** BENCH_FRAMES=1: frames and bytes received per event name, printed at the end. */
const countFrames = process.env.BENCH_FRAMES === '1';
const frames = new Map<string, { frames: number; bytes: number }>();

function report(message: AssignClientReport, done: () => void = () => undefined): void {
  if (!process.send) throw new Error('auto-assign-client.ts must be spawned with an IPC channel (bench/auto-assign.ts)');
  process.send(message, done);
}

/** One agent's socket; resolves once the namespace accepted it. */
function connectOne(url: string, agent: AssignAgentLogin, event: string): Promise<WebSocket> {
  const address = new URL('/socket.io/', url.replace(/^http/, 'ws'));
  address.search = new URLSearchParams({ EIO: '4', transport: 'websocket', token: agent.token }).toString();
  const eventPrefix = Buffer.from(`42${JSON.stringify([event]).slice(0, -1)},`);
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(address);
    socket.on('error', reject);
    socket.on('message', (data: Buffer) => {
      if (countFrames) {
        const name = /^42\["([^"]+)"/.exec(data.toString('latin1', 0, 80))?.[1] ?? 'other';
        const count = frames.get(name) ?? { frames: 0, bytes: 0 };
        frames.set(name, { frames: count.frames + 1, bytes: count.bytes + data.length });
      }
      if (data.length > eventPrefix.length && data.subarray(0, eventPrefix.length).equals(eventPrefix)) {
        if (data.indexOf(OPEN) < 0) return;
        const at = wallClock();
        const [, payload] = JSON.parse(data.toString('utf8', 2)) as [string, { action?: string; ticket?: { id: number; status: string; userId: number | null } }];
        const ticket = payload.ticket;
        if (payload.action === 'update' && ticket?.status === 'open' && ticket.userId === agent.userId && !assigned.has(ticket.id)) {
          assigned.set(ticket.id, [ticket.id, agent.userId, at]);
        }
        return;
      }
      const frame = data.toString();
      if (frame === '2') socket.send('3');
      else if (frame.startsWith('0{')) socket.send('40');
      else if (frame.startsWith('40')) resolve(socket);
      else if (frame.startsWith('44')) reject(new Error(`connection refused: ${frame}`));
    });
  });
}

process.on('message', (command: AssignClientCommand) => {
  if (command.type === 'start') {
    (async () => {
      for (const agent of command.agents) sockets.push(await connectOne(command.url, agent, command.event));
    })().then(
      () => report({ type: 'ready' }),
      (error: unknown) => {
        console.error('auto-assign client could not connect:', error);
        process.exit(1);
      },
    );
  } else {
    for (const socket of sockets) socket.close();
    if (countFrames) for (const [name, count] of frames) console.error(`${name}: ${count.frames} frames, ${count.bytes} bytes`);
    report({ type: 'assigned', assigned: [...assigned.values()] }, () => process.disconnect());
  }
});
process.on('disconnect', () => process.exit(0));
