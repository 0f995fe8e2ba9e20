import { useState } from 'react';

/** A list page's add/edit dialog: closed, open to add a record, or open to edit one. */
export function useEditDialog<T>() {
  const [editing, setEditing] = useState<{ record: T | null } | null>(null);
  return {
    open: editing !== null,
    /** The record being edited; null while adding (or closed). */
    record: editing?.record ?? null,
    add: () => setEditing({ record: null }),
    edit: (record: T) => setEditing({ record }),
    close: () => setEditing(null),
  };
}
