import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, loadConfig, parseServices } from '../platform/config.js';
import { exampleEnvironment } from './site.js';

/**
 * The operator's files in deploy/ (docs/deploy.md) against the server they describe:
 * the environment file names every variable the server reads, with values it accepts,
 * and every process is started with services the server knows. (The nginx site is run
 * by `npm run test:topology`.)
 */
const deploy = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../deploy');
const read = (file: string) => readFileSync(path.join(deploy, file), 'utf8');

const SECRETS = {
  JWT_SECRET: 'deploy-files-access-secret-0123456789abcdefghij',
  JWT_REFRESH_SECRET: 'deploy-files-refresh-secret-0123456789abcdefgh',
  ENCRYPTION_KEY: 'deploy-files-encryption-key-0123456789abcdefgh',
  ADMIN_PASSWORD: 'Deploy-files-1',
};

describe('deploy/atende.env.example', () => {
  const listed = exampleEnvironment();

  it('describes every variable the server reads, once, and no other', () => {
    const names = listed.map((variable) => variable.name);
    expect([...names].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('is a configuration the server accepts once its secrets are filled in, and so are the defaults it shows', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'atende-deploy-'));
    const given = Object.fromEntries(listed.filter((variable) => variable.set).map((variable) => [variable.name, variable.value]));
    expect(() => loadConfig({ ...given, ...SECRETS, DATA_DIR: dataDir })).not.toThrow();
    const everything = Object.fromEntries(listed.filter((variable) => variable.value !== '').map((variable) => [variable.name, variable.value]));
    expect(() => loadConfig({ ...everything, ...SECRETS, DATA_DIR: dataDir })).not.toThrow();
  });
});

describe('deploy/ processes', () => {
  it('start every role with services the server knows: two api nodes and a worker,channels node', () => {
    // The units' ExecStart and the compose services' command.
    const commands = [read('systemd/atende-api@.service'), read('systemd/atende-worker.service'), read('compose.yaml')].flatMap((text) =>
      [...text.matchAll(/^(?:ExecStart=.*|\s+command: .*)--services=([a-z,]+)/gm)].map((match) => match[1] ?? ''),
    );
    for (const services of commands) expect(() => parseServices([`--services=${services}`])).not.toThrow();
    expect(commands.sort()).toEqual(['api', 'api', 'api', 'worker,channels', 'worker,channels']);
  });
});
