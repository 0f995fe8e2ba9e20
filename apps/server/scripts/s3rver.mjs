/**
 * A local S3-compatible server for the tests (src/test/s3-server.ts starts it): s3rver on
 * loopback, keeping its objects in a folder, with one bucket, behind a proxy that checks
 * every request's Signature V4 as S3 does. s3rver does not check V4 signatures itself; the
 * proxy recomputes each one with the AWS SDK's signer (@smithy/signature-v4), another
 * implementation than the server's (aws4fetch), and answers 403 SignatureDoesNotMatch
 * when they differ.
 *
 * It runs in a process of its own, started with --openssl-legacy-provider: s3rver makes the
 * continuation tokens of a listing with DES, which Node's OpenSSL 3 has only in its legacy
 * provider.
 *
 *   node --openssl-legacy-provider scripts/s3rver.mjs --port 0 --directory DIR --bucket NAME
 *
 * Prints `listening <port>` once it answers; runs until killed or until its standard input
 * closes (the test process that started it ended).
 */
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import http from 'node:http';
import { parseArgs } from 'node:util';
import S3rver from 's3rver';

const ACCESS_KEY = 'S3RVER';
const SECRET_KEY = 'S3RVER';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, directory: { type: 'string' }, bucket: { type: 'string' } } });
if (!values.directory || !values.bucket) {
  process.stderr.write('usage: s3rver.mjs --port N --directory DIR --bucket NAME\n');
  process.exit(2);
}
const upstream = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: values.directory, configureBuckets: [{ name: values.bucket, configs: [] }] });
const inner = (await upstream.run()).port;

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

/** Why the request's signature is not the one its key makes, or null when it is. */
async function signatureRefusal(request) {
  const match = AUTHORIZATION.exec(request.headers.authorization ?? '');
  if (!match) return 'no Signature V4 Authorization header';
  const [, accessKey, , region, signedHeaders, signature] = match;
  if (accessKey !== ACCESS_KEY) return `unknown access key ${accessKey}`;
  const amzDate = String(request.headers['x-amz-date'] ?? '');
  const parts = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!parts) return 'no X-Amz-Date';
  const signingDate = new Date(`${parts[1]}-${parts[2]}-${parts[3]}T${parts[4]}:${parts[5]}:${parts[6]}Z`);
  const at = request.url.indexOf('?');
  const path = at === -1 ? request.url : request.url.slice(0, at);
  const query = {};
  if (at !== -1) {
    for (const pair of request.url.slice(at + 1).split('&').filter(Boolean)) {
      const equals = pair.indexOf('=');
      const name = decodeURIComponent(equals === -1 ? pair : pair.slice(0, equals));
      query[name] = equals === -1 ? '' : decodeURIComponent(pair.slice(equals + 1));
    }
  }
  const headers = {};
  for (const name of signedHeaders.split(';')) headers[name] = String(request.headers[name] ?? '');
  const signer = new SignatureV4({
    service: 's3',
    region,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY },
    sha256: Hash.bind(null, 'sha256'),
    // The path is signed as it was sent (already encoded), as S3 does.
    uriEscapePath: false,
    applyChecksum: false,
  });
  const [hostname, port] = String(request.headers.host ?? '').split(':');
  const signed = await signer.sign({ method: request.method, protocol: 'http:', hostname, port: Number(port), path, query, headers }, { signingDate });
  const expected = /SignedHeaders=([^,]+), Signature=([0-9a-f]{64})/.exec(signed.headers.authorization);
  if (expected?.[1] !== signedHeaders) return `signed headers ${signedHeaders}, expected ${expected?.[1]}`;
  return expected[2] === signature ? null : 'the signature does not match';
}

const proxy = http.createServer((request, response) => {
  void signatureRefusal(request).then((refusal) => {
    if (refusal) {
      request.resume();
      response.writeHead(403, { 'content-type': 'application/xml' });
      response.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SignatureDoesNotMatch</Code><Message>${refusal}</Message></Error>`);
      return;
    }
    const forward = http.request({ host: '127.0.0.1', port: inner, method: request.method, path: request.url, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    forward.on('error', () => response.destroy());
    // An upload cut half-way reaches s3rver cut too.
    request.on('close', () => {
      if (!request.complete) forward.destroy();
    });
    request.pipe(forward);
  });
});
await new Promise((resolve) => proxy.listen(Number(values.port), '127.0.0.1', resolve));
process.stdout.write(`listening ${proxy.address().port}\n`);
process.stdin.resume();
process.stdin.on('close', () => process.exit(0));
