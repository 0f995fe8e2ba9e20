import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The raw body, as received (signatures are checked on it). */
  body: string;
  json: unknown;
}

export interface FakeReply {
  status?: number;
  json?: unknown;
  text?: string;
  /** Answer only after this long (a peer that times out). */
  delayMs?: number;
}

export interface FakeHttp {
  url: string;
  requests: FakeRequest[];
  close(): Promise<void>;
}

/** A local HTTP server standing in for a peer; `handle` answers each request. */
export async function startFakeHttp(handle: (request: FakeRequest) => FakeReply | Promise<FakeReply>): Promise<FakeHttp> {
  const requests: FakeRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown = null;
      if ((req.headers['content-type'] ?? '').includes('json') && body) {
        try {
          json = JSON.parse(body);
        } catch {
          json = null;
        }
      }
      const request: FakeRequest = { method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0] ?? '/', headers: req.headers, body, json };
      requests.push(request);
      Promise.resolve(handle(request))
        .then(async (reply) => {
          if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
          if (res.destroyed) return;
          const status = reply.status ?? 200;
          if (reply.json !== undefined) {
            res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.json));
          } else {
            res.writeHead(status, { 'content-type': 'text/plain' }).end(reply.text ?? '');
          }
        })
        .catch((error: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
