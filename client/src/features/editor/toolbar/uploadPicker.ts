import type { ChangeEvent } from 'react';
import type { Editor } from '@tiptap/core';
import { LIMITS, type ExtraFileType, type UploadAnswer, type UploadKind } from '@eln/shared';
import { currentLanguage } from '../../../i18n';
import { alert, hideProgress, showProgress } from '../../../modals/store';
import { insertFile, insertImage } from '../commands';
import { rememberLink } from '../fileLinks';
import { freshAccessToken } from '../token';
import { checkUpload, uploadCheckMessage, uploadFile, type UploadOwner } from '../upload';

/**
 * The change handler of the toolbar's hidden file inputs: checks the picked file (a file may also be of
 * a type administrators added, `addedTypes`), uploads it with progress, and inserts it as an image or a
 * file block.
 */
export function uploadPicker(
  editor: Editor,
  uploadOwner: UploadOwner | null,
  addedTypes: readonly ExtraFileType[],
): (kind: UploadKind) => (event: ChangeEvent<HTMLInputElement>) => void {
  const upload = async (file: File, kind: UploadKind) => {
    const language = currentLanguage();
    const check = checkUpload(file.name, file.size, kind, addedTypes);
    const message = uploadCheckMessage(check, language);
    if (message || uploadOwner === null) {
      if (message) await alert(message, { tone: 'error' });
      return;
    }
    let answer: UploadAnswer;
    showProgress(0);
    try {
      answer = await uploadFile({ owner: uploadOwner, file, token: await freshAccessToken(), language, onProgress: showProgress });
    } catch (error) {
      hideProgress();
      await alert(error instanceof Error ? error.message : String(error), { tone: 'error' });
      return;
    }
    hideProgress();
    if (answer.url) rememberLink(answer.fileId, answer.url);
    if (kind === 'image') {
      const base = (answer.origin || file.name).replace(/\.[^.]+$/, '');
      insertImage(editor, { fileId: answer.fileId, title: base.slice(0, LIMITS.imageTitle) });
    } else {
      insertFile(editor, {
        fileId: answer.fileId,
        name: answer.origin || file.name,
        size: answer.size ?? file.size,
        extension: answer.extension ?? '',
      });
    }
  };

  return (kind: UploadKind) => (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) void upload(file, kind);
  };
}
