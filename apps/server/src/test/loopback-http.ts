import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer, type AddressInfo } from 'node:net';

/**
 * HTTP from chosen loopback addresses, for tests where who the client is matters
 * (limits per address, a proxy's X-Forwarded-For): Linux routes all of 127.0.0.0/8
 * to lo, so a client may connect from 127.0.0.2, 127.0.1.7, ...
 */

/** A port free on loopback now (a process is told it before anything listens there). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The JSON body; empty when the body is not JSON (nginx's own pages). */
  body: { error?: string } & Record<string, unknown>;
}

export interface SendOptions {
  port: number;
  method: string;
  path: string;
  /** The source address (default 127.0.0.2). */
  from?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** HTTPS, trusting this certificate (PEM). */
  ca?: string;
}

/** One request to 127.0.0.1 on a new connection from the given source address. */
export function send(options: SendOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const request = options.ca ? httpsRequest : httpRequest;
    const req = request(
      {
        host: '127.0.0.1',
        port: options.port,
        method: options.method,
        path: options.path,
        localAddress: options.from ?? '127.0.0.2',
        agent: false,
        ...(options.ca ? { ca: options.ca } : {}),
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...options.headers },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          let body: Answer['body'] = {};
          try {
            body = JSON.parse(text) as Answer['body'];
          } catch {
            // Not JSON: the status says enough.
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
