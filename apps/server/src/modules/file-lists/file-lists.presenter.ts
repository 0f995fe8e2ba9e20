import type { PresentedFileList } from '@atende/shared';
import { mediaTypeOf, type MediaStorage } from '../../platform/storage/media-storage.js';
import type { FileListDetail } from './file-lists.repo.js';

export function presentFileList(row: FileListDetail, media: Pick<MediaStorage, 'signedUrl'>): PresentedFileList {
  return {
    id: row.id,
    name: row.name,
    message: row.message,
    options: row.options.map((option) => ({
      id: option.id,
      name: option.name,
      // The file's own name, never where it lies on disk.
      path: option.path ? option.fileName : null,
      mediaType: option.mimeType ? mediaTypeOf(option.mimeType) : null,
      mediaUrl: option.path ? media.signedUrl(option.path) : null,
    })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
