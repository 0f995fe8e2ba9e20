import { AwsV4Signer } from 'aws4fetch';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { SaxesParser } from 'saxes';
import { assertMediaKey, assertMediaPrefix, MediaStoreError, MediaStoreUnavailableError, type MediaObject, type MediaStore } from './media-store.js';

export interface S3Settings {
  /** The service's address; unset: AWS's, `https://s3.<region>.amazonaws.com`. */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `<endpoint>/<bucket>/<key>` (MinIO, most self-hosted stores) instead of `<bucket>.<endpoint host>/<key>`. */
  forcePathStyle: boolean;
  /** Keys per listing request (S3's maximum, 1000, by default; tests page with fewer). */
  pageSize?: number;
  /** How long a request may wait for the answer's headers (an upload: plus its transfer at 64 KB/s). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** Attempts of a request that can be sent again as it was (not an upload from a stream). */
const ATTEMPTS = 3;
const RETRY_AFTER_MS = [100, 400];
/** Pauses between the checks that a cut-off upload left nothing (removeCutOff). */
const CUT_OFF_CHECKS_MS = [0, 50, 100, 200, 400, 800];
const MD5_ETAG = /^"?([0-9a-f]{32})"?$/;

/** S3's URI encoding of one path segment: RFC 3986 unreserved characters as they are, everything else escaped. */
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The elements of an S3 XML answer, each `Contents` entry apart (ListObjectsV2), else the last text of each name. */
function readXml(xml: string): { fields: Map<string, string>; contents: Map<string, string>[] } {
  const parser = new SaxesParser({ position: false });
  const fields = new Map<string, string>();
  const contents: Map<string, string>[] = [];
  let entry: Map<string, string> | null = null;
  let text = '';
  parser.on('opentag', (tag) => {
    if (tag.name === 'Contents') entry = new Map();
    text = '';
  });
  parser.on('text', (chunk) => (text += chunk));
  parser.on('closetag', (tag) => {
    if (tag.name === 'Contents' && entry) {
      contents.push(entry);
      entry = null;
    } else {
      (entry ?? fields).set(tag.name, text);
    }
    text = '';
  });
  parser.write(xml).close();
  return { fields, contents };
}

async function errorOf(response: Response, what: string): Promise<Error> {
  const body = await response.text().catch(() => '');
  let code = '';
  let message = '';
  try {
    const { fields } = readXml(body);
    code = fields.get('Code') ?? '';
    message = fields.get('Message') ?? '';
  } catch {
    // Not XML (a proxy's page): the status says enough.
  }
  const detail = `${what}: ${response.status}${code ? ` ${code}` : ''}${message ? ` (${message})` : ''}`;
  if (response.status >= 500 || response.status === 429) return new MediaStoreUnavailableError(detail);
  return new MediaStoreError(detail);
}

/** The answer never came: refused, reset, a DNS failure, a timeout. */
function unreachable(what: string, error: unknown): MediaStoreUnavailableError {
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  const reason = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  return new MediaStoreUnavailableError(`${what}: ${reason}`, { cause: error });
}

interface Call {
  method: 'GET' | 'HEAD' | 'PUT' | 'DELETE';
  key?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: Buffer | Readable;
  timeoutMs?: number;
}

/**
 * Media files in an S3-compatible bucket, with requests signed by AWS Signature V4
 * (aws4fetch's signer, Node's fetch). Uploads stream with `UNSIGNED-PAYLOAD` and
 * `Content-MD5` where the digest is known (a Buffer's is computed, and its SHA-256 signed),
 * downloads stream from the answer: no file is held whole in memory by the store.
 */
export function createS3MediaStore(settings: S3Settings): MediaStore {
  const endpoint = new URL(settings.endpoint ?? `https://s3.${settings.region}.amazonaws.com`);
  const basePath = endpoint.pathname.replace(/\/+$/, '');
  const bucketUrl = settings.forcePathStyle
    ? `${endpoint.origin}${basePath}/${encodeSegment(settings.bucket)}`
    : `${endpoint.protocol}//${settings.bucket}.${endpoint.host}${basePath}`;
  const pageSize = settings.pageSize ?? 1000;
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const location = `bucket ${settings.bucket} at ${endpoint.origin}${basePath}`;

  function urlOf(call: Call): string {
    const path = call.key === undefined ? (settings.forcePathStyle ? '' : '/') : `/${call.key.split('/').map(encodeSegment).join('/')}`;
    const query = call.query
      ? `?${Object.entries(call.query)
          .map(([name, value]) => `${encodeSegment(name)}=${encodeSegment(value)}`)
          .join('&')}`
      : '';
    return `${bucketUrl}${path}${query}`;
  }

  async function once(call: Call, what: string): Promise<Response> {
    const signer = new AwsV4Signer({
      method: call.method,
      url: urlOf(call),
      headers: call.headers,
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
      service: 's3',
      region: settings.region,
    });
    const signed = await signer.sign();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error(`no answer within ${call.timeoutMs ?? timeoutMs} ms`)), call.timeoutMs ?? timeoutMs);
    try {
      const body = call.body === undefined ? undefined : Buffer.isBuffer(call.body) ? call.body : (Readable.toWeb(call.body) as ReadableStream);
      return await fetch(signed.url, { method: call.method, headers: signed.headers, body, signal: controller.signal, duplex: 'half' } as RequestInit);
    } catch (error) {
      throw unreachable(what, error);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Sends a call, again after a moment while the store is unavailable, when it can be sent again as it was. */
  async function request(call: Call, what: string): Promise<Response> {
    const repeatable = !(call.body instanceof Readable);
    for (let attempt = 1; ; attempt++) {
      let failure: Error;
      try {
        const response = await once(call, what);
        if (response.status < 500 && response.status !== 429) return response;
        failure = await errorOf(response, what);
      } catch (error) {
        if (!(error instanceof MediaStoreUnavailableError)) throw error;
        failure = error;
      }
      if (!repeatable || attempt >= ATTEMPTS) throw failure;
      await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS[attempt - 1] ?? 1000));
    }
  }

  async function head(key: string): Promise<{ size: number; md5?: string } | null> {
    const response = await request({ method: 'HEAD', key }, `HEAD ${key}`);
    if (response.status === 404) return null;
    if (!response.ok) throw await errorOf(response, `HEAD ${key}`);
    const md5 = MD5_ETAG.exec(response.headers.get('etag') ?? '')?.[1];
    return { size: Number(response.headers.get('content-length') ?? 0), ...(md5 ? { md5 } : {}) };
  }

  async function remove(key: string): Promise<void> {
    const response = await request({ method: 'DELETE', key }, `DELETE ${key}`);
    await response.arrayBuffer();
    if (!response.ok && response.status !== 404) throw await errorOf(response, `DELETE ${key}`);
  }

  /**
   * Removes what a cut-off upload left. A compatible store (s3rver, some MinIO versions) may
   * still be writing the cut object when the client has given up on it, and so keep it after
   * a first DELETE: it is removed again until it has stayed away for a moment.
   */
  async function removeCutOff(key: string): Promise<void> {
    let absentInARow = 0;
    for (const pause of CUT_OFF_CHECKS_MS) {
      await new Promise((resolve) => setTimeout(resolve, pause));
      try {
        if ((await head(key)) === null) {
          if (++absentInARow === 2) return;
          continue;
        }
        absentInARow = 0;
        await remove(key);
      } catch {
        return; // the store is unreachable: nothing more can be done here
      }
    }
  }

  async function* listed(prefix: string): AsyncGenerator<MediaObject> {
    let token: string | undefined;
    do {
      const query: Record<string, string> = { 'list-type': '2', 'max-keys': String(pageSize), prefix };
      if (token) query['continuation-token'] = token;
      const what = `list ${prefix || '(all)'}`;
      const response = await request({ method: 'GET', query }, what);
      if (!response.ok) throw await errorOf(response, what);
      const { fields, contents } = readXml(await response.text());
      for (const entry of contents) {
        const key = entry.get('Key');
        if (key !== undefined) yield { key, size: Number(entry.get('Size') ?? 0) };
      }
      token = fields.get('IsTruncated') === 'true' ? fields.get('NextContinuationToken') : undefined;
    } while (token);
  }

  return {
    kind: 's3',
    location,
    async put(key, body, options) {
      assertMediaKey(key);
      const what = `PUT ${key}`;
      const headers: Record<string, string> = { 'content-length': String(options.size), 'content-type': options.contentType || 'application/octet-stream' };
      let md5 = options.md5?.toLowerCase();
      let sent: Buffer | Readable = body;
      // What the stream gave, and how it ended: a length error is the caller's, not the store's.
      const source = { counted: 0, ended: false, error: null as unknown };
      if (Buffer.isBuffer(body)) {
        if (body.length !== options.size) throw new MediaStoreError(`${what}: ${body.length} bytes given, ${options.size} expected`);
        md5 ??= createHash('md5').update(body).digest('hex');
        headers['x-amz-content-sha256'] = createHash('sha256').update(body).digest('hex');
      } else {
        sent = Readable.from(
          (async function* () {
            try {
              for await (const chunk of body) {
                source.counted += (chunk as Buffer).length;
                yield chunk as Buffer;
              }
              source.ended = true;
            } catch (error) {
              source.error = error;
              throw error;
            }
          })(),
          { objectMode: false },
        );
      }
      if (md5) headers['content-md5'] = Buffer.from(md5, 'hex').toString('base64');
      // A stream that fails half-way cuts the upload: S3 keeps nothing of it, but some compatible
      // stores keep what came as an object. Whether the key was there tells what may be removed then.
      const existed = Buffer.isBuffer(body) ? true : (await head(key)) !== null;
      let response: Response;
      try {
        response = await request({ method: 'PUT', key, headers, body: sent, timeoutMs: timeoutMs + Math.ceil(options.size / 64) }, what);
      } catch (error) {
        if (!existed) await removeCutOff(key);
        if (source.error) throw source.error;
        if (source.counted > options.size || (source.ended && source.counted !== options.size)) {
          throw new MediaStoreError(`${what}: the stream's length is not ${options.size} bytes`, { cause: error });
        }
        throw error;
      }
      if (!response.ok) throw await errorOf(response, what);
      await response.arrayBuffer();
      // A store that took the bytes without checking Content-MD5 (S3 itself refuses them): what it kept is removed.
      const etag = MD5_ETAG.exec(response.headers.get('etag') ?? '')?.[1];
      if (md5 && etag && etag !== md5) {
        await remove(key).catch(() => undefined);
        throw new MediaStoreError(`${what}: the bytes stored do not match their MD5`);
      }
    },
    async get(key) {
      assertMediaKey(key);
      const response = await request({ method: 'GET', key }, `GET ${key}`);
      if (response.status === 404) {
        const error = await errorOf(response, `GET ${key}`);
        if (error.message.includes('NoSuchBucket')) throw error;
        return null;
      }
      if (!response.ok || !response.body) throw await errorOf(response, `GET ${key}`);
      return { stream: Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), size: Number(response.headers.get('content-length') ?? 0) };
    },
    async stat(key) {
      assertMediaKey(key);
      return head(key);
    },
    async remove(key) {
      assertMediaKey(key);
      return remove(key);
    },
    list(prefix) {
      assertMediaPrefix(prefix);
      return listed(prefix);
    },
    async check() {
      const response = await request({ method: 'HEAD' }, 'HEAD bucket');
      await response.arrayBuffer();
      if (response.ok) return;
      if (response.status === 403) throw new MediaStoreError('the credentials were refused (403): check S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_REGION and the bucket policy');
      if (response.status === 404) throw new MediaStoreError('there is no such bucket (404): create it, or check S3_BUCKET, S3_ENDPOINT and S3_FORCE_PATH_STYLE');
      throw await errorOf(response, 'HEAD bucket');
    },
  };
}
