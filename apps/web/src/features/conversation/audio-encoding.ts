/** Spec part 1 §4, §9: audio is mp3 at 128 kbps; a recording under 10000 bytes is discarded silently. */
const MP3_KBPS = 128;
export const MIN_RECORDING_BYTES = 10_000;
const FRAME = 1152;

export function keepRecording(blob: Pick<Blob, 'size'>): boolean {
  return blob.size >= MIN_RECORDING_BYTES;
}

export function recordingFileName(now: Date = new Date()): string {
  return `audio-${now.getTime()}.mp3`;
}

/** Web Audio samples (-1..1) as 16-bit PCM, what the mp3 encoder takes. */
export function toPcm16(samples: Float32Array): Int16Array {
  const pcm = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i += 1) {
    const s = Math.max(-1, Math.min(1, samples[i]!));
    pcm[i] = s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff);
  }
  return pcm;
}

/** Channels averaged into one: a voice note is mono. */
export function downmix(channels: readonly Float32Array[]): Float32Array {
  if (channels.length === 1) return channels[0]!;
  const length = Math.min(...channels.map((c) => c.length));
  const mono = new Float32Array(length);
  for (const channel of channels) for (let i = 0; i < length; i += 1) mono[i] = (mono[i] ?? 0) + (channel[i] ?? 0) / channels.length;
  return mono;
}

/** Encodes mono samples to mp3; lamejs is loaded only when a recording is sent. */
export async function encodeMp3(samples: Float32Array, sampleRate: number): Promise<Blob> {
  const { Mp3Encoder } = await import('@breezystack/lamejs');
  const encoder = new Mp3Encoder(1, sampleRate, MP3_KBPS);
  const pcm = toPcm16(samples);
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < pcm.length; i += FRAME) {
    const chunk = encoder.encodeBuffer(pcm.subarray(i, i + FRAME));
    if (chunk.length > 0) chunks.push(new Uint8Array(chunk));
  }
  const tail = encoder.flush();
  if (tail.length > 0) chunks.push(new Uint8Array(tail));
  return new Blob(chunks as BlobPart[], { type: 'audio/mpeg' });
}
