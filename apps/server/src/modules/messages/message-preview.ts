import { MEDIA_PREVIEWS, type MediaPreviewKind, type MessageData } from '@atende/shared';

const FILE_KINDS: Record<string, MediaPreviewKind> = { image: 'image', video: 'video', audio: 'audio', application: 'document' };

/** The kind of file a message carries, from its stored file and what the channel said of it (voice note, sticker). */
function mediaKindOf(media: { mediaType: string } | null | undefined, data?: Pick<MessageData, 'voice' | 'sticker'> | null): MediaPreviewKind | null {
  if (data?.sticker) return 'sticker';
  if (data?.voice) return 'voice';
  return media ? (FILE_KINDS[media.mediaType] ?? 'document') : null;
}

/** What a ticket's list row shows for its last message. */
export function lastMessagePreview(input: {
  body: string;
  media?: { name: string; mediaType: string } | null;
  specialType?: string | null;
  data?: Pick<MessageData, 'voice' | 'sticker'> | null;
  /** The kind of a file not stored yet (a Cloud API download still pending). */
  mediaKind?: MediaPreviewKind | undefined;
}): string {
  if (input.body.trim()) return input.body.slice(0, 255);
  // The web shows the word for it (spec: a location shows the word for location).
  if (input.specialType) return input.specialType;
  const kind = input.mediaKind ?? mediaKindOf(input.media, input.data);
  if (!kind) return '';
  // A document is told apart by its name; an image or a voice note by its kind, in the reader's language.
  if (kind === 'document' && input.media?.name) return input.media.name.slice(0, 255);
  return MEDIA_PREVIEWS[kind];
}
