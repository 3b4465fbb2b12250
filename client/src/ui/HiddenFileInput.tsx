import type { RefObject } from 'react';

/**
 * A file input kept out of sight and out of the Tab order: a visible button opens it (`ref.current.click()`),
 * so the choice is made with the product's own button rather than the browser's. The chosen file is handed
 * on and the input emptied, so that choosing the same file again is a choice again.
 */
export function HiddenFileInput({
  inputRef,
  accept,
  onFile,
  testId,
}: {
  inputRef: RefObject<HTMLInputElement | null>;
  accept: string;
  onFile(file: File): void;
  testId: string;
}) {
  return (
    <input
      ref={inputRef}
      type="file"
      accept={accept}
      className="visually-hidden"
      tabIndex={-1}
      aria-hidden="true"
      onChange={(event) => {
        const file = event.target.files?.[0];
        event.target.value = '';
        if (file) onFile(file);
      }}
      data-testid={testId}
    />
  );
}
