/**
 * A fan-out client process, spawned by bench/fanout.ts (a few of them, so that
 * receiving the events does not saturate the bench process): connects one
 * Socket.IO client per token of the start command, records for every event the
 * delay since the send stamp `t=<wall-clock ms>` in the message body, and hands all
 * delays to the parent in one IPC message when told to stop. Per event it only
 * parses the stamp and stores a number.
 */
import { io, type Socket } from 'socket.io-client';
import { wallClock } from './fanout.js';

/** Parent → client: connect and listen, then stop and report. */
export type FanoutCommand = { type: 'start'; url: string; tokens: string[]; event: string } | { type: 'stop' };
/** Client → parent: all sockets connected, then the delays (ms) of every event received. */
export type FanoutReport = { type: 'ready' } | { type: 'delays'; delays: number[] };

const STAMP = /t=(\d+(?:\.\d+)?)/;
const delays: number[] = [];
const sockets: Socket[] = [];

/** Sends a report to the parent; `done` runs once the message is written. */
function report(message: FanoutReport, done: () => void = () => undefined): void {
  if (!process.send) throw new Error('fanout-client.ts must be spawned with an IPC channel (bench/fanout.ts)');
  process.send(message, done);
}

/** Connects one websocket client per token, one after the other, each recording the delay of `event`. */
async function connect(url: string, tokens: string[], event: string): Promise<void> {
  for (const token of tokens) {
    const socket = io(url, { transports: ['websocket'], query: { token }, reconnection: false, forceNew: true });
    socket.on(event, (payload: { message?: { body?: string } }) => {
      const stamp = STAMP.exec(payload.message?.body ?? '');
      if (stamp?.[1]) delays.push(wallClock() - Number(stamp[1]));
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    sockets.push(socket);
  }
}

process.on('message', (command: FanoutCommand) => {
  if (command.type === 'start') {
    connect(command.url, command.tokens, command.event).then(
      () => report({ type: 'ready' }),
      (error: unknown) => {
        console.error('fan-out client could not connect:', error);
        process.exit(1);
      },
    );
  } else {
    for (const socket of sockets) socket.close();
    report({ type: 'delays', delays }, () => process.disconnect());
  }
});
// Reported, or the parent went away: nothing left to do.
process.on('disconnect', () => process.exit(0));
