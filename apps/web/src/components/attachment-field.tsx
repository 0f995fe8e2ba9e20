import AttachFile from '@mui/icons-material/AttachFile';
import Close from '@mui/icons-material/Close';
import { Box, Button, Chip } from '@mui/material';
import { Tooltip } from './tooltip';
import { useRef, type ReactNode } from 'react';
import type { HttpClient } from '../api/http-client';
import { HiddenFileInput } from './hidden-file-input';

/** A dialog's one optional file: the one already stored, a new one picked, or none. */
export type Attachment = { kind: 'stored'; name: string } | { kind: 'new'; file: File } | { kind: 'none' };

export const storedAttachment = (name: string | null | undefined): Attachment => (name ? { kind: 'stored', name } : { kind: 'none' });

interface AttachmentFieldProps {
  value: Attachment;
  onChange(value: Attachment): void;
  disabled?: boolean;
  accept?: string;
  /** Refuses a picked file with a message (shown by the caller), or accepts it (null). */
  check?(file: File): string | null;
  onRefused(message: string): void;
  labels: { attach: string; hint: string; remove: string };
  /** `${testId}`, `${testId}-attach`, `${testId}-file` */
  testId: string;
  /** More buttons on the same line (e.g. delete). */
  children?: ReactNode;
}

/** The chip of the current file (removable) or an "attach" button, with its hidden file input. */
export function AttachmentField({ value, onChange, disabled, accept, check, onRefused, labels, testId, children }: AttachmentFieldProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  const name = value.kind === 'new' ? value.file.name : value.kind === 'stored' ? value.name : null;
  return (
    <Box>
      {name ? (
        <Chip
          icon={<AttachFile />}
          label={name}
          onDelete={disabled ? undefined : () => onChange({ kind: 'none' })}
          deleteIcon={<Close aria-label={labels.remove} />}
          data-testid={testId}
          sx={{ maxWidth: '100%' }}
        />
      ) : (
        <Tooltip title={labels.hint}>
          <span>
            <Button startIcon={<AttachFile />} onClick={() => fileInput.current?.click()} disabled={disabled} data-testid={`${testId}-attach`}>
              {labels.attach}
            </Button>
          </span>
        </Tooltip>
      )}
      {children}
      <HiddenFileInput
        inputRef={fileInput}
        testId={`${testId}-file`}
        accept={accept}
        onPick={(file) => {
          const refusal = check?.(file) ?? null;
          if (refusal) onRefused(refusal);
          else onChange({ kind: 'new', file });
        }}
      />
    </Box>
  );
}

/**
 * Brings a saved record's file in line with the dialog: uploads a new one to
 * `{base}/media-upload`, or deletes the stored one the user removed. Answers the
 * record as the server has it afterwards.
 */
export async function syncAttachment<T extends { mediaName: string | null }>(api: HttpClient, base: string, saved: T, attachment: Attachment): Promise<T> {
  if (attachment.kind === 'new') {
    const form = new FormData();
    form.append('file', attachment.file);
    return api.post<T>(`${base}/media-upload`, form);
  }
  if (attachment.kind === 'none' && saved.mediaName) return api.delete<T>(`${base}/media-upload`);
  return saved;
}
