import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyInstance } from 'fastify';
import { runWithLogContext } from '../logger.js';
import type { TrustProxy } from './trust-proxy.js';

/** A caller's id is kept only if it is this short and plain (it goes into logs and a header). */
const VALID_REQUEST_ID = /^[\w.-]{1,64}$/;

/**
 * Every request's id (Fastify's `genReqId`): the one the proxy sent in `X-Request-Id`
 * when the connection comes from a proxy TRUST_PROXY names and the id is valid, so one id
 * follows the request through the proxy's log and ours; otherwise a new one. A client
 * reaching the server directly cannot choose its id.
 */
export function requestIdGenerator(trustProxy: TrustProxy): (request: IncomingMessage) => string {
  const trusted = trustProxy === false ? null : proxyAddr.compile(trustProxy);
  return (request) => {
    const given = request.headers['x-request-id'];
    const peer = request.socket.remoteAddress;
    if (trusted && peer && typeof given === 'string' && VALID_REQUEST_ID.test(given) && trusted(peer, 0)) return given;
    // 16 hex digits: short enough to read out from an error message, unique enough to find in a day's logs.
    return randomBytes(8).toString('hex');
  };
}

/**
 * Every answer, success or error, carries its request's id (`X-Request-Id`): users quote it,
 * operators search it. Every line logged while the request is handled carries it too
 * (`reqId`, from the log context this opens: logger.ts), whichever area logs it.
 */
export function sendRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => runWithLogContext(request.id, done));
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
}
