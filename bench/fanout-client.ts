/**
 * A fan-out client process, spawned by bench/fanout.ts (a few of them, so that
 * receiving the events does not saturate the bench process): opens one
 * websocket per token of the start command, records for every event the delay
 * since the send stamp `t=<wall-clock ms>` in the message body, and hands all
 * delays to the parent in one IPC message when told to stop.
 *
 * It speaks the Socket.IO wire protocol (Engine.IO 4, Socket.IO 5) over a bare
 * `ws` socket rather than through socket.io-client: 500 clients receive 50,000
 * events a second, and decoding each one's JSON would cost this machine (which
 * also runs the server under test) as much CPU as the server's own sending. Per
 * event it compares the event name's bytes and reads the stamp from the raw frame.
 */
import WebSocket from 'ws';
import { wallClock } from './fanout.js';

/** Parent → client: connect and listen; hand over the delays so far (and keep listening); stop and report. */
export type FanoutCommand = { type: 'start'; url: string; tokens: string[]; event: string } | { type: 'take' } | { type: 'stop' };
/** Client → parent: all sockets connected, then the delays (ms) of every event received. */
export type FanoutReport = { type: 'ready' } | { type: 'delays'; delays: number[] };

/** Where the send stamp starts in a message body (`t=<wall-clock ms>`). */
const STAMP = Buffer.from('t=');
const delays: number[] = [];
const sockets: WebSocket[] = [];

/** Sends a report to the parent; `done` runs once the message is written. */
function report(message: FanoutReport, done: () => void = () => undefined): void {
  if (!process.send) throw new Error('fanout-client.ts must be spawned with an IPC channel (bench/fanout.ts)');
  process.send(message, done);
}

/**
 * One Socket.IO client on the default namespace: Engine.IO open (`0`), namespace
 * connect (`40`), pings (`2`) answered with pongs (`3`), events as `42[name, payload]`.
 * Resolves once the namespace accepted the connection.
 */
function connectOne(url: string, token: string, event: string): Promise<WebSocket> {
  const address = new URL('/socket.io/', url.replace(/^http/, 'ws'));
  address.search = new URLSearchParams({ EIO: '4', transport: 'websocket', token }).toString();
  const eventPrefix = Buffer.from(`42${JSON.stringify([event]).slice(0, -1)},`);
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(address);
    socket.on('error', reject);
    socket.on('message', (data: Buffer) => {
      // Events are read straight from the bytes: no string of the whole frame, no JSON.
      if (data.length > eventPrefix.length && data.subarray(0, eventPrefix.length).equals(eventPrefix)) {
        const at = data.indexOf(STAMP);
        if (at >= 0) delays.push(wallClock() - Number.parseFloat(data.toString('latin1', at + STAMP.length, at + STAMP.length + 24)));
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

/** Connects one client per token, one after the other. */
async function connect(url: string, tokens: string[], event: string): Promise<void> {
  for (const token of tokens) sockets.push(await connectOne(url, token, event));
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
  } else if (command.type === 'take') {
    report({ type: 'delays', delays: delays.splice(0) });
  } else {
    for (const socket of sockets) socket.close();
    report({ type: 'delays', delays }, () => process.disconnect());
  }
});
// Reported, or the parent went away: nothing left to do.
process.on('disconnect', () => process.exit(0));
