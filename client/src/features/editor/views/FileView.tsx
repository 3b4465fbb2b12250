import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { formatBytes } from '@eln/shared';
import { currentLanguage } from '../../../i18n';
import { alert } from '../../../modals/store';
import { DownloadIcon } from '../../../ui/icons';
import { fileLink } from '../fileLinks';

/** A file block: name, type and size, and a download through a fresh signed link. */
export function FileView({ node, selected }: NodeViewProps) {
  const { t } = useTranslation('editor');
  const language = currentLanguage();
  const fileId = typeof node.attrs.fileId === 'string' ? node.attrs.fileId : '';
  const name = typeof node.attrs.name === 'string' ? node.attrs.name : '';
  const extension = typeof node.attrs.extension === 'string' ? node.attrs.extension : '';
  const size = typeof node.attrs.size === 'number' ? node.attrs.size : Number(node.attrs.size) || 0;
  const [busy, setBusy] = useState(false);

  const download = async () => {
    setBusy(true);
    try {
      const url = await fileLink(fileId);
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      link.rel = 'noopener';
      document.body.appendChild(link);
      link.click();
      link.remove();
    } catch {
      await alert(t('file.failed'), { tone: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <NodeViewWrapper className={`note-file${selected ? ' is-selected' : ''}`} data-testid="file-block" contentEditable={false}>
      <span className="note-file-ext" aria-hidden="true">
        {extension.toUpperCase().slice(0, 4) || 'FILE'}
      </span>
      <span className="note-file-text">
        <span className="note-file-name" title={name}>
          {name}
        </span>
        <span className="note-file-meta">
          {t('file.attachment')} · {formatBytes(size, language)}
        </span>
      </span>
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        onClick={() => void download()}
        disabled={busy || !fileId}
        data-testid="file-download"
      >
        <DownloadIcon size={15} />
        {t('file.download')}
      </button>
    </NodeViewWrapper>
  );
}
