/**
 * The realtime fan-out figure's two halves: socket clients in child processes
 * (fanout-client.ts) and a sender that posts inbound messages at a fixed rate.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import path from 'node:path';
import type { FanoutCommand, FanoutReport } from './fanout-client.js';
import { summarize } from './load.js';

/**
 * Requests the sender keeps open at most. A server slower than the rate fills them
 * and the achieved rate drops (with maxLagMs showing it) instead of requests piling up.
 */
const MAX_IN_FLIGHT = 32;

/** The wall-clock time in ms, comparable across the processes of one machine. */
export function wallClock(): number {
  return performance.timeOrigin + performance.now();
}

/** The client's next report; rejects if the client exits first. */
function nextReport(child: ChildProcess): Promise<FanoutReport> {
  return new Promise((resolve, reject) => {
    const exited = () => reject(new Error(`fan-out client ${child.pid} exited with ${child.exitCode ?? child.signalCode}`));
    if (child.exitCode !== null || child.signalCode !== null) return exited();
    child.once('exit', exited);
    child.once('message', (message: FanoutReport) => {
      child.off('exit', exited);
      resolve(message);
    });
  });
}

/** Waits for a client to exit, killing it if it has not within 5 s. */
async function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await once(child, 'exit');
  clearTimeout(timer);
}

export interface FanoutClients {
  pids: number[];
  /** The delays (ms) of the events received since the start or the last take; the clients keep listening. */
  take(): Promise<number[]>;
  /** Stops every client and returns the delays (ms) of the events received since the last take. */
  stop(): Promise<number[]>;
}

/**
 * Spawns `procs` client processes that together connect one socket per token and
 * listen for `event`; resolves once every socket is connected.
 */
export async function startFanoutClients(options: { url: string; tokens: string[]; procs: number; event: string }): Promise<FanoutClients> {
  const procs = Math.max(1, Math.min(options.procs, options.tokens.length));
  const children = Array.from({ length: procs }, (_, k) => {
    // The tsx loader (resolved from the repository root) runs the TypeScript client.
    const child = fork(path.join(import.meta.dirname, 'fanout-client.ts'), {
      cwd: path.resolve(import.meta.dirname, '..'),
      execPath: process.execPath,
      execArgv: ['--import', 'tsx'],
      serialization: 'advanced',
    });
    child.send({ type: 'start', url: options.url, tokens: options.tokens.filter((_, i) => i % procs === k), event: options.event } satisfies FanoutCommand);
    return child;
  });
  try {
    await Promise.all(children.map(nextReport));
  } catch (error) {
    for (const child of children) child.kill();
    throw error;
  }
  /** Sends `command` to every client and gathers the delays they report. */
  const collect = async (command: 'take' | 'stop') => {
    const reports = await Promise.all(
      children.map(async (child) => {
        const report = nextReport(child);
        child.send({ type: command } satisfies FanoutCommand);
        const result = await report;
        if (command === 'stop') await exitOf(child);
        return result.type === 'delays' ? result.delays : [];
      }),
    );
    return reports.flat();
  };
  return { pids: children.map((child) => child.pid ?? 0), take: () => collect('take'), stop: () => collect('stop') };
}

/** One POST of a JSON body; resolves with the failure (status or network error), or null on a 2xx answer. */
function post(agent: http.Agent, target: URL, headers: Record<string, string>, body: string): Promise<string | null> {
  return new Promise((resolve) => {
    const request = http.request(
      {
        agent,
        method: 'POST',
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on('close', () => {
          const status = response.statusCode ?? 0;
          resolve(response.complete && status >= 200 && status < 300 ? null : `status ${status}`);
        });
      },
    );
    request.on('error', (error) => resolve(error.message));
    request.end(body);
  });
}

export interface SendResult {
  sent: number;
  errors: number;
  /** Achieved send rate (messages/s). */
  rps: number;
  /** How far the latest send started behind its schedule (ms). */
  maxLagMs: number;
}

/**
 * Posts `rate × seconds` messages to `url`, message i due at start + i/rate (a
 * schedule, so slow answers do not make it drift), with at most MAX_IN_FLIGHT
 * requests open. `body(i)` builds the JSON body when the message is sent; `headers` are
 * the request's own headers for that body (a bearer token, or a signature of the raw body).
 */
export async function sendAtRate(options: {
  url: string;
  rate: number;
  seconds: number;
  body: (i: number) => unknown;
  headers: (raw: string) => Record<string, string>;
}): Promise<SendResult> {
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT });
  const pending = new Set<Promise<void>>();
  const total = Math.floor(options.rate * options.seconds);
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  let errors = 0;
  let maxLagMs = 0;
  const started = performance.now();
  const send = (raw: string) => post(agent, target, options.headers(raw), raw);
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / options.rate;
    if (due > performance.now()) await sleep(due - performance.now());
    while (pending.size >= MAX_IN_FLIGHT) await Promise.race(pending);
    maxLagMs = Math.max(maxLagMs, performance.now() - due);
    const request: Promise<void> = send(JSON.stringify(options.body(i))).then((failure) => {
      pending.delete(request);
      if (failure === null) return;
      if (errors === 0) console.warn(`fan-out send failed: ${failure}`);
      errors += 1;
    });
    pending.add(request);
  }
  // The schedule spans `seconds`; a late sender shows as a lower rate.
  const end = started + options.seconds * 1000;
  if (end > performance.now()) await sleep(end - performance.now());
  const elapsed = (performance.now() - started) / 1000;
  await Promise.all(pending);
  agent.destroy();
  return { sent: total, errors, rps: Math.round((total / elapsed) * 100) / 100, maxLagMs: Math.round(maxLagMs * 10) / 10 };
}

/**
 * A delivery figure: the delays (ms) from each send to each socket's event, the sends' rate and
 * errors, and how many events arrived against how many should have (every accepted send reaches
 * every socket once).
 */
export function deliveryFigure(sends: SendResult, delays: number[], seconds: number, sockets: number) {
  const summary = summarize(delays, sends.errors, seconds);
  return {
    p50: summary.p50,
    p90: summary.p90,
    p99: summary.p99,
    requests: sends.sent,
    errors: sends.errors,
    rps: sends.rps,
    extra: { deliveries: delays.length, expectedDeliveries: (sends.sent - sends.errors) * sockets, maxSendLagMs: sends.maxLagMs },
  };
}
