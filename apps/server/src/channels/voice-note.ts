import { spawn, spawnSync } from 'node:child_process';

let ffmpegAvailable: boolean | null = null;

/** Whether this machine has ffmpeg (Debian's package); checked once per process. */
export function hasFfmpeg(): boolean {
  if (ffmpegAvailable === null) {
    const probe = spawnSync('ffmpeg', ['-hide_banner', '-version'], { stdio: 'ignore', timeout: 5000 });
    ffmpegAvailable = probe.status === 0;
  }
  return ffmpegAvailable;
}

const OGG_OPUS = 'audio/ogg; codecs=opus';

function isOggOpus(mimeType: string): boolean {
  return /^audio\/ogg/i.test(mimeType);
}

function convert(data: Buffer, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', 'pipe:0', '-vn', '-ac', '1', '-c:a', 'libopus', '-b:a', '48k', '-f', 'ogg', 'pipe:1'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    let errorText = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('ffmpeg timed out'));
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      errorText += chunk.toString().slice(0, 500);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0 && chunks.length > 0) resolve(Buffer.concat(chunks));
      else reject(new Error(`ffmpeg exited with ${code}: ${errorText}`));
    });
    // A closed stdin (ffmpeg gave up early) must not crash the process.
    child.stdin.on('error', () => undefined);
    child.stdin.end(data);
  });
}

export interface PreparedAudio {
  data: Buffer;
  mimeType: string;
  /** Sent as a voice note (push-to-talk) rather than an audio file. */
  voiceNote: boolean;
}

/**
 * WhatsApp plays voice notes in Ogg/Opus; the browser records mp3 (DECISIONS 8).
 * With ffmpeg present the audio is converted; without it (or if conversion
 * fails) it is sent as a plain audio file, which every phone still plays.
 */
export async function prepareVoiceNote(data: Buffer, mimeType: string, timeoutMs = 30_000): Promise<PreparedAudio> {
  if (isOggOpus(mimeType)) return { data, mimeType: OGG_OPUS, voiceNote: true };
  if (!hasFfmpeg()) return { data, mimeType, voiceNote: false };
  try {
    return { data: await convert(data, timeoutMs), mimeType: OGG_OPUS, voiceNote: true };
  } catch {
    return { data, mimeType, voiceNote: false };
  }
}
