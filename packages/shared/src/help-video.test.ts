import { describe, expect, it } from 'vitest';
import { HelpBody, HelpUpdateBody } from './schemas.js';

const video = (input: string) => HelpBody.safeParse({ title: 'T', video: input });

describe('help video code', () => {
  it('takes the id out of a pasted YouTube address', () => {
    for (const address of [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s',
      'https://youtube.com/watch?feature=share&v=dQw4w9WgXcQ',
      'https://m.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://youtu.be/dQw4w9WgXcQ?si=abc',
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1',
      'https://www.youtube.com/shorts/dQw4w9WgXcQ',
      '  dQw4w9WgXcQ ',
    ]) {
      expect(video(address).data?.video, address).toBe('dQw4w9WgXcQ');
    }
    expect(HelpUpdateBody.parse({ video: 'https://youtu.be/abc_DEF-1' })).toEqual({ video: 'abc_DEF-1' });
  });

  it('refuses anything that is not an id or a YouTube address of one', () => {
    for (const input of ['https://evil.example/watch?v=dQw4w9WgXcQ', 'https://www.youtube.com/', 'https://youtu.be/', 'a"b', '../x', 'javascript:alert(1)', 'x'.repeat(65)]) {
      expect(video(input).success, input).toBe(false);
    }
    expect(video('').error?.issues[0]?.message).toBe('validation.required');
    expect(video('https://evil.example/x').error?.issues[0]?.message).toBe('validation.invalidValue');
  });
});
