import { useState, type ReactNode } from 'react';
import { useSession } from '../api/session';
import { ItemConfirmationDialog } from './confirmation-dialog';
import { toastError } from './toast';

interface DeleteConfirmationOptions<T> {
  /** The record's API path; the hook sends it a DELETE. */
  path(item: T): string;
  /** After the server deleted it: take it out of the cache and say so. */
  onDeleted(item: T): void;
  /** The dialog's title; asked with null while the dialog closes. */
  title(item: T | null): string;
  /** The text under the title. */
  message?: string;
}

/**
 * Deleting a record after a yes/no question: `ask(item)` opens the
 * confirmation, which the page renders as `dialog`; a refusal is an error toast.
 */
export function useDeleteConfirmation<T>({ path, onDeleted, title, message }: DeleteConfirmationOptions<T>): { ask(item: T): void; dialog: ReactNode } {
  const { api } = useSession();
  const [deleting, setDeleting] = useState<T | null>(null);

  const remove = async (item: T) => {
    try {
      await api.delete(path(item));
      onDeleted(item);
    } catch (error) {
      toastError(error);
    }
  };

  const dialog = (
    <ItemConfirmationDialog item={deleting} title={title(deleting)} onClose={() => setDeleting(null)} onConfirm={(target) => void remove(target)}>
      {message}
    </ItemConfirmationDialog>
  );
  return { ask: (item) => setDeleting(() => item), dialog };
}
