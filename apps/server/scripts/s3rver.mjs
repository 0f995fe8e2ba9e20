/**
 * A local S3-compatible server for the tests (src/test/s3-server.ts starts it): s3rver on
 * loopback, keeping its objects in a folder, with one bucket. It runs in a process of its
 * own, started with --openssl-legacy-provider: s3rver makes the continuation tokens of a
 * listing with DES, which Node's OpenSSL 3 has only in its legacy provider.
 *
 *   node --openssl-legacy-provider scripts/s3rver.mjs --port 0 --directory DIR --bucket NAME
 *
 * Prints `listening <port>` once it answers; runs until killed or until its standard input
 * closes (the test process that started it ended).
 */
import { parseArgs } from 'node:util';
import S3rver from 's3rver';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, directory: { type: 'string' }, bucket: { type: 'string' } } });
if (!values.directory || !values.bucket) {
  process.stderr.write('usage: s3rver.mjs --port N --directory DIR --bucket NAME\n');
  process.exit(2);
}
const server = new S3rver({
  address: '127.0.0.1',
  port: Number(values.port),
  silent: true,
  directory: values.directory,
  configureBuckets: [{ name: values.bucket, configs: [] }],
});
const { port } = await server.run();
process.stdout.write(`listening ${port}\n`);
process.stdin.resume();
process.stdin.on('close', () => process.exit(0));
