import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../platform/config.js';
import { localMediaFolder, s3SettingsOf } from '../platform/storage/configured-media-store.js';
import { createLocalMediaStore } from '../platform/storage/local-media-store.js';
import { MediaStoreError, MediaStoreUnavailableError } from '../platform/storage/media-store.js';
import { createS3MediaStore } from '../platform/storage/s3-media-store.js';
import { formatMoveReport, moveMedia } from './media-to-s3/move-media.js';

const USAGE = `Usage: npm run media:to-s3 -- [--from DIR] [--remove-local] [--dry-run] [--concurrency N]

Copies the media files kept in a folder (DATA_DIR/media) into the S3 bucket named by
S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and
S3_FORCE_PATH_STYLE (the same environment the server reads; MEDIA_STORAGE may still be
local). Each file keeps its key, so the stored paths of messages stay valid. A file already
in the bucket with the same size and MD5 is skipped: run it again to resume or to take
the files written since. See docs/operations.md, "Media on S3".

  --from DIR        the media folder (default DATA_DIR/media)
  --remove-local    remove each file from the folder once its copy is checked
  --dry-run         compare only: count what would be copied
  --concurrency N   files copied at once (default 4)
`;

try {
  const { values } = parseArgs({
    options: {
      from: { type: 'string' },
      'remove-local': { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
      concurrency: { type: 'string', default: '4' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) throw new ConfigError('--concurrency must be a whole number from 1 to 64');
  const config = loadConfig();
  const settings = s3SettingsOf(config);
  if ('missing' in settings) throw new ConfigError(`Invalid configuration: ${settings.missing.join(', ')} required to move media to S3`);
  const from = createLocalMediaStore(values.from ? path.resolve(values.from) : localMediaFolder(config));
  const to = createS3MediaStore(settings);
  await to.check();

  // Ctrl-C: the files under way finish, the report says where it stopped.
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  let lastProgress = Date.now();
  const options = { from, to, concurrency, removeSource: values['remove-local'], dryRun: values['dry-run'], signal: stop.signal };
  const report = await moveMedia({
    ...options,
    onProgress(progress) {
      if (Date.now() - lastProgress < 2000) return;
      lastProgress = Date.now();
      process.stderr.write(`${progress.found} files looked at: ${progress.copied} copied, ${progress.alreadyThere} already there, ${progress.failed.length} failed\n`);
    },
  });
  process.stdout.write(formatMoveReport(report, from, to, options));
  process.exitCode = report.failed.length > 0 || report.interrupted ? 3 : 0;
} catch (error) {
  const explained = error instanceof ConfigError || error instanceof MediaStoreError || error instanceof MediaStoreUnavailableError;
  process.stderr.write(`${explained ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
}
