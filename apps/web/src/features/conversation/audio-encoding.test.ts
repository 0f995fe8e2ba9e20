import { describe, expect, it } from 'vitest';
import { downmix, encodeMp3, keepRecording, MIN_RECORDING_BYTES, recordingFileName, toPcm16 } from './audio-encoding';

describe('audio recording', () => {
  it('discards recordings under 10000 bytes', () => {
    expect(keepRecording({ size: MIN_RECORDING_BYTES - 1 })).toBe(false);
    expect(keepRecording({ size: 0 })).toBe(false);
    expect(keepRecording({ size: MIN_RECORDING_BYTES })).toBe(true);
  });

  it('names the file audio-<time>.mp3', () => {
    expect(recordingFileName(new Date(1_700_000_000_000))).toBe('audio-1700000000000.mp3');
  });

  it('converts samples to 16-bit PCM with clipping, and averages channels', () => {
    expect(Array.from(toPcm16(new Float32Array([0, 1, -1, 2, -2, 0.5])))).toEqual([0, 32767, -32768, 32767, -32768, 16384]);
    expect(Array.from(downmix([new Float32Array([1, 0]), new Float32Array([0, 0])]))).toEqual([0.5, 0]);
  });

  it('encodes mp3 at 128 kbps: about 16 kB per second', async () => {
    const rate = 44_100;
    const tone = new Float32Array(rate).map((_, i) => Math.sin((2 * Math.PI * 440 * i) / rate) * 0.5);
    const mp3 = await encodeMp3(tone, rate);
    expect(mp3.type).toBe('audio/mpeg');
    expect(mp3.size).toBeGreaterThan(14_000);
    expect(mp3.size).toBeLessThan(19_000);
    // jsdom's Blob has no arrayBuffer(): read it the old way.
    const bytes = await new Promise<ArrayBuffer>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as ArrayBuffer);
      reader.readAsArrayBuffer(mp3);
    });
    const head = new Uint8Array(bytes).slice(0, 2);
    // An MPEG audio frame sync word.
    expect(head[0]).toBe(0xff);
    expect(head[1]! & 0xe0).toBe(0xe0);
    expect(keepRecording(mp3)).toBe(true);
    // A fraction of a second is under the threshold and is dropped.
    expect(keepRecording(await encodeMp3(tone.subarray(0, rate / 4), rate))).toBe(false);
  });
});
