import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseServices } from './config.js';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'atende-config-'));

describe('loadConfig', () => {
  it('applies the defaults and generates secrets once, kept in DATA_DIR', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    expect(first).toMatchObject({ PORT: 8080, HOST: '127.0.0.1', ADMIN_EMAIL: 'admin@admin.com', NODE_ENV: 'development' });
    expect(first.DATABASE_URL).toBeUndefined();
    expect(first.REDIS_URL).toBeUndefined();
    expect(first.REDIS_PREFIX).toBe('atende');
    expect(first.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(first.JWT_SECRET).not.toBe(first.JWT_REFRESH_SECRET);
    const second = loadConfig({ DATA_DIR: dir });
    expect(second.JWT_SECRET).toBe(first.JWT_SECRET);
    const file = path.join(dir, 'secrets.json');
    expect(JSON.parse(readFileSync(file, 'utf8')).JWT_SECRET).toBe(first.JWT_SECRET);
    expect(statSync(file).mode & 0o077).toBe(0);
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), REDIS_URL: 'http://x' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), REDIS_PREFIX: 'a b*' })).toThrow(/REDIS_PREFIX/);
    expect(loadConfig({ DATA_DIR: dataDir(), REDIS_PREFIX: 'tenant-2.prod' }).REDIS_PREFIX).toBe('tenant-2.prod');
    expect(() => loadConfig({ DATA_DIR: dataDir(), ADMIN_EMAIL: 'nope' })).toThrow(/ADMIN_EMAIL/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), JWT_SECRET: 'short' })).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'staging' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir(), OUTBOUND_ALLOW_PRIVATE: '10.0.0.0/8, 10.0.0.0/40' })).toThrow(/OUTBOUND_ALLOW_PRIVATE/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), OUTBOUND_ALLOW_PRIVATE: 'http://n8n:5678' })).toThrow(/OUTBOUND_ALLOW_PRIVATE/);
  });

  it('turns metrics on with a METRICS_TOKEN long enough to be a secret, and METRICS_PORT only with one', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dataDir(), METRICS_TOKEN: '', METRICS_PORT: '' })).toMatchObject({ METRICS_TOKEN: undefined, METRICS_PORT: undefined });
    expect(loadConfig({ DATA_DIR: dataDir(), METRICS_TOKEN: 'prometheus-scrape-token', METRICS_PORT: '9464' })).toMatchObject({ METRICS_TOKEN: 'prometheus-scrape-token', METRICS_PORT: 9464 });
    expect(() => loadConfig({ DATA_DIR: dataDir(), METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), METRICS_TOKEN: 'has a space in it, sixteen+' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), METRICS_PORT: '9464' })).toThrow(/METRICS_PORT needs METRICS_TOKEN/);
  });

  it('reads the outbound allow-list: addresses, blocks and host names, none by default', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).outboundAllowPrivate).toEqual([]);
    const config = loadConfig({ DATA_DIR: dataDir(), OUTBOUND_ALLOW_PRIVATE: ' 10.0.0.0/8, fd00::/8 ,n8n.internal,192.168.1.20' });
    expect(config.outboundAllowPrivate).toEqual(['10.0.0.0/8', 'fd00::/8', 'n8n.internal', '192.168.1.20']);
  });

  it('bounds every state of an HTTP connection by default, and refuses a request timeout shorter than the headers one', () => {
    expect(loadConfig({ DATA_DIR: dataDir() })).toMatchObject({
      HTTP_HEADERS_TIMEOUT_SECONDS: 30,
      HTTP_REQUEST_TIMEOUT_SECONDS: 600,
      HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: 72,
      MAX_CONNECTIONS_PER_IP: 2000,
    });
    expect(loadConfig({ DATA_DIR: dataDir(), HTTP_REQUEST_TIMEOUT_SECONDS: '0', MAX_CONNECTIONS_PER_IP: '0' })).toMatchObject({
      HTTP_REQUEST_TIMEOUT_SECONDS: 0,
      MAX_CONNECTIONS_PER_IP: 0,
    });
    expect(() => loadConfig({ DATA_DIR: dataDir(), HTTP_HEADERS_TIMEOUT_SECONDS: '0' })).toThrow(/HTTP_HEADERS_TIMEOUT_SECONDS/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), HTTP_HEADERS_TIMEOUT_SECONDS: '60', HTTP_REQUEST_TIMEOUT_SECONDS: '30' })).toThrow(
      /HTTP_REQUEST_TIMEOUT_SECONDS must be 0 or at least HTTP_HEADERS_TIMEOUT_SECONDS/,
    );
  });

  it('believes X-Forwarded-For from nobody unless TRUST_PROXY names the proxy, in production too', () => {
    const secrets = { JWT_SECRET: 'a'.repeat(40), JWT_REFRESH_SECRET: 'b'.repeat(40), ENCRYPTION_KEY: 'k'.repeat(40) };
    expect(loadConfig({ DATA_DIR: dataDir() }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ ...secrets, NODE_ENV: 'production' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ ...secrets, NODE_ENV: 'production', TRUST_PROXY: '' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ ...secrets, TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ ...secrets, TRUST_PROXY: ' 10.0.0.5, 172.16.0.0/12 ,fd00::/8,loopback' }).TRUST_PROXY).toEqual(['10.0.0.5', '172.16.0.0/12', 'fd00::/8', 'loopback']);
    // Trusting everyone, or a hop count (which trusts a direct client's forged header), is
    // refused with a message saying what to write instead.
    expect(() => loadConfig({ ...secrets, TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: true would let every client choose its own address; name the proxy/);
    expect(() => loadConfig({ ...secrets, TRUST_PROXY: '1' })).toThrow(/TRUST_PROXY: a hop count cannot tell the proxy from a client .*; name the proxy/);
    for (const bad of ['10.0.0.0/40', 'proxy.internal', '1.2.3', '-1', '10.0.0.1,,nope']) {
      expect(() => loadConfig({ ...secrets, TRUST_PROXY: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ ...secrets, TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it('refuses to start in production without the three secrets', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'production' })).toThrow(/JWT_SECRET, JWT_REFRESH_SECRET, ENCRYPTION_KEY required/);
    const secret = 'a'.repeat(40);
    const key = 'k'.repeat(40);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: secret, JWT_REFRESH_SECRET: 'b'.repeat(40) })).toThrow(/ENCRYPTION_KEY required/);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: secret, JWT_REFRESH_SECRET: secret, ENCRYPTION_KEY: key })).toThrow(/must differ/);
    const config = loadConfig({ NODE_ENV: 'production', JWT_SECRET: secret, JWT_REFRESH_SECRET: 'b'.repeat(40), ENCRYPTION_KEY: key });
    expect(config.isProduction).toBe(true);
    expect(config.ENCRYPTION_KEY).toBe(key);
  });

  it('adds a missing encryption key to an older secrets file, keeping its JWT secrets', () => {
    const dir = dataDir();
    const older = { JWT_SECRET: 'j'.repeat(40), JWT_REFRESH_SECRET: 'r'.repeat(40) };
    writeFileSync(path.join(dir, 'secrets.json'), JSON.stringify(older));
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.JWT_SECRET).toBe(older.JWT_SECRET);
    expect(config.ENCRYPTION_KEY.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }).ENCRYPTION_KEY).toBe(config.ENCRYPTION_KEY);
  });

  it('keeps media in DATA_DIR by default; MEDIA_STORAGE=s3 needs the bucket and keys, and says which are missing', () => {
    expect(loadConfig({ DATA_DIR: dataDir() })).toMatchObject({ MEDIA_STORAGE: 'local', S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: false });
    expect(() => loadConfig({ DATA_DIR: dataDir(), MEDIA_STORAGE: 's3' })).toThrow(
      'Invalid configuration: S3_BUCKET: required when MEDIA_STORAGE=s3; S3_ACCESS_KEY_ID: required when MEDIA_STORAGE=s3; S3_SECRET_ACCESS_KEY: required when MEDIA_STORAGE=s3',
    );
    const s3 = { DATA_DIR: dataDir(), MEDIA_STORAGE: 's3', S3_BUCKET: 'atende-media', S3_ACCESS_KEY_ID: 'key', S3_SECRET_ACCESS_KEY: 'secret' };
    expect(loadConfig({ ...s3, S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'true' })).toMatchObject({ S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: true });
    expect(() => loadConfig({ ...s3, MEDIA_STORAGE: 'gcs' })).toThrow(/MEDIA_STORAGE/);
    expect(() => loadConfig({ ...s3, S3_BUCKET: 'My_Bucket' })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig({ ...s3, S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT/);
    expect(() => loadConfig({ ...s3, S3_FORCE_PATH_STYLE: 'yes' })).toThrow(/S3_FORCE_PATH_STYLE/);
  });

  it('parses --services', () => {
    expect(parseServices([])).toEqual({ api: true, worker: true, channels: true });
    expect(parseServices(['--services=api'])).toEqual({ api: true, worker: false, channels: false });
    expect(() => parseServices(['--services=api,cron'])).toThrow(/cron/);
  });
});
