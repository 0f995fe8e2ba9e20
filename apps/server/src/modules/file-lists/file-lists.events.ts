import type { Platform } from '../../platform/platform.js';
import { rooms } from '../../platform/realtime/rooms.js';
import { presentFileList } from './file-lists.presenter.js';
import type { FileListDetail } from './file-lists.repo.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    'fileList.saved': { companyId: number; action: 'create' | 'update'; fileList: FileListDetail };
    'fileList.deleted': { companyId: number; fileListId: number };
  }
}

/** Realtime `company-{id}-file` (create, update, delete) to the company's admins. */
export function subscribeFileListEvents({ events, publisher, media }: Pick<Platform, 'events' | 'publisher' | 'media'>): void {
  events.on('fileList.saved', ({ companyId, action, fileList }) => {
    // `files` is the key the whaticket v6 client reads.
    const presented = presentFileList(fileList, media);
    publisher.toRooms(companyId, [rooms.admins(companyId)], 'file', { action, fileList: presented, files: presented });
  });
  events.on('fileList.deleted', ({ companyId, fileListId }) => {
    publisher.toRooms(companyId, [rooms.admins(companyId)], 'file', { action: 'delete', fileId: fileListId });
  });
}
