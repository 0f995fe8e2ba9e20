import { MEDIA_PREVIEWS } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { lastMessagePreview } from './message-preview.js';

describe('lastMessagePreview', () => {
  const file = (mediaType: string, name = 'file.bin') => ({ mediaType, name });

  it('is the text when there is one, cut to 255 characters', () => {
    expect(lastMessagePreview({ body: 'Olá', media: file('image') })).toBe('Olá');
    expect(lastMessagePreview({ body: 'x'.repeat(300) })).toHaveLength(255);
  });

  it('names the kind of a file without caption, a voice note and a sticker apart; a document by its name', () => {
    expect(lastMessagePreview({ body: ' ', media: file('image', '1699.jpg') })).toBe(MEDIA_PREVIEWS.image);
    expect(lastMessagePreview({ body: '', media: file('video') })).toBe(MEDIA_PREVIEWS.video);
    expect(lastMessagePreview({ body: '', media: file('audio') })).toBe(MEDIA_PREVIEWS.audio);
    expect(lastMessagePreview({ body: '', media: file('audio'), data: { voice: true } })).toBe(MEDIA_PREVIEWS.voice);
    expect(lastMessagePreview({ body: '', media: file('image'), data: { sticker: true } })).toBe(MEDIA_PREVIEWS.sticker);
    expect(lastMessagePreview({ body: '', media: file('application', 'Proposta.pdf') })).toBe('Proposta.pdf');
    expect(lastMessagePreview({ body: '', mediaKind: 'document' })).toBe(MEDIA_PREVIEWS.document);
  });

  it('names a file still being fetched by the kind the channel gave', () => {
    expect(lastMessagePreview({ body: '', mediaKind: 'voice' })).toBe(MEDIA_PREVIEWS.voice);
  });

  it('keeps the special kinds and is empty when there is nothing', () => {
    expect(lastMessagePreview({ body: '', specialType: 'locationMessage' })).toBe('locationMessage');
    expect(lastMessagePreview({ body: '' })).toBe('');
  });
});
