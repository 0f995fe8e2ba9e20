import { z } from 'zod';
import { id, requiredText } from './validation.js';
import { MAX_UPLOAD_BYTES } from './constants.js';

/** File lists (spec part 2 §2.11, §3, §5): name at least 3 characters, message required, options each with a name. */
export const FileListOption = z.object({ id: id().optional(), name: requiredText(1, 100) });

export const FileListBody = z.object({
  name: requiredText(3, 100),
  message: requiredText(1, 2000),
  options: z.array(FileListOption).max(20, 'validation.tooLong').optional().default([]),
});
export type FileListBody = z.infer<typeof FileListBody>;

/** PUT: options, when sent, replace the list's options (an option kept by id keeps its file). */
export const FileListUpdateBody = z.object({
  name: requiredText(3, 100).optional(),
  message: requiredText(1, 2000).optional(),
  options: z.array(FileListOption).max(20, 'validation.tooLong').optional(),
});
export type FileListUpdateBody = z.infer<typeof FileListUpdateBody>;

export const FileListQuery = z.object({
  searchParam: z.string().max(200, 'validation.tooLong').optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
export type FileListQuery = z.infer<typeof FileListQuery>;

/** What a file list option may hold: images, audio, video, PDF and office documents, up to 16 MB each. */
export const FILE_LIST_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.gif', '.webp', '.mp3', '.ogg', '.m4a', '.mp4', '.pdf', '.doc', '.docx', '.xls', '.xlsx', '.ppt', '.pptx', '.txt', '.csv', '.zip'] as const;
export const FILE_LIST_MAX_BYTES = MAX_UPLOAD_BYTES;

export const PresentedFileListOptionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  path: z.string().nullable(),
  mediaType: z.string().nullable(),
  mediaUrl: z.string().nullable(),
});
export type PresentedFileListOption = z.output<typeof PresentedFileListOptionSchema>;

export const PresentedFileListSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  message: z.string(),
  options: z.array(PresentedFileListOptionSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PresentedFileList = z.output<typeof PresentedFileListSchema>;
