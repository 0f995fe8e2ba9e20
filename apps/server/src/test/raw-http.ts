import net from 'node:net';

/**
 * HTTP/1.1 over a raw TCP socket, for tests that must see exactly what the
 * server did to a connection: a complete answer, a FIN between requests, or a
 * reset after a request was written.
 */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What became of a request written on a connection. */
export type RawOutcome =
  | { kind: 'response'; response: RawResponse }
  /** The server's FIN arrived before any byte of an answer: it closed the connection before it read the request (a client retries). */
  | { kind: 'closed-before-read' }
  /** Reset (or closed) without a FIN first, or in the middle of an answer: the request reached the server and was dropped. */
  | { kind: 'dropped'; reason: string };

export class RawConnection {
  readonly socket: net.Socket;
  /** The server's FIN arrived. */
  ended = false;
  closed = false;
  error: string | null = null;
  private buffer = Buffer.alloc(0);
  private wake: (() => void) | null = null;

  constructor(options: net.NetConnectOpts) {
    this.socket = net.connect(options);
    this.socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.notify();
    });
    this.socket.on('end', () => {
      this.ended = true;
      this.notify();
    });
    this.socket.on('error', (error: NodeJS.ErrnoException) => {
      this.error = error.code ?? error.message;
      this.notify();
    });
    this.socket.on('close', () => {
      this.closed = true;
      this.notify();
    });
  }

  /** Resolves true once connected, or with the error code (ECONNREFUSED, ...). */
  connected(): Promise<true | string> {
    return new Promise((resolve) => {
      if (this.error) return resolve(this.error);
      this.socket.once('connect', () => resolve(true));
      this.socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
  }

  write(data: string): void {
    this.socket.write(data);
  }

  /** Waits for the next complete answer, or for the connection's end. */
  async next(): Promise<RawOutcome> {
    for (;;) {
      const response = this.take();
      if (response) return { kind: 'response', response };
      if (this.ended && this.buffer.length === 0) return { kind: 'closed-before-read' };
      if (this.error || this.closed) {
        return { kind: 'dropped', reason: `${this.error ?? 'closed'}${this.buffer.length > 0 ? ' in the middle of an answer' : ''}` };
      }
      if (this.ended) return { kind: 'dropped', reason: 'FIN in the middle of an answer' };
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** Resolves once the connection is closed (by either side), or after `ms`, with whether it was. */
  async waitClosed(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!this.closed) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, left).unref();
      });
    }
    return true;
  }

  /** The bytes received and not taken as an answer. */
  pending(): string {
    return this.buffer.toString('latin1');
  }

  destroy(): void {
    this.socket.destroy();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private take(): RawResponse | null {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const head = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '')?.[1]);
    const headers: Record<string, string> = {};
    for (const line of head.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    if (headers['transfer-encoding']) throw new Error(`raw-http reads Content-Length answers only (got ${headers['transfer-encoding']})`);
    const length = Number(headers['content-length'] ?? 0);
    if (this.buffer.length < end + 4 + length) return null;
    const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    this.buffer = this.buffer.subarray(end + 4 + length);
    return { status, headers, body };
  }
}

export function rawRequest(method: string, path: string, headers: Record<string, string> = {}, body = ''): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  if (body || method === 'POST') lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
