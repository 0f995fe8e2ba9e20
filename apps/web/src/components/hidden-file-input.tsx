import type { RefObject } from 'react';

interface HiddenFileInputProps {
  /** The button that opens the file chooser clicks this input. */
  inputRef: RefObject<HTMLInputElement | null>;
  testId: string;
  /** File types the chooser offers first (the server still checks). */
  accept?: string;
  onPick(file: File): void;
}

/** The file input behind an "attach" button: hands over the one file picked and empties itself, so the same file can be picked again. */
export function HiddenFileInput({ inputRef, testId, accept, onPick }: HiddenFileInputProps) {
  return (
    <input
      ref={inputRef}
      type="file"
      hidden
      accept={accept}
      data-testid={testId}
      onChange={(event) => {
        const file = event.target.files?.[0];
        event.target.value = '';
        if (file) onPick(file);
      }}
    />
  );
}
