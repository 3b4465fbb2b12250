import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { useEditable } from './useEditable';
import { LIMITS } from '@eln/shared';
import { AlertIcon } from '../../../ui/icons';
import { fileLink } from '../fileLinks';

/** An image block: the stored file through a fresh signed link, with its title (up to 30 characters). */
export function ImageView({ node, editor, selected, updateAttributes }: NodeViewProps) {
  const editable = useEditable(editor);
  const { t } = useTranslation('editor');
  const fileId = typeof node.attrs.fileId === 'string' ? node.attrs.fileId : '';
  const title = typeof node.attrs.title === 'string' ? node.attrs.title : '';
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let alive = true;
    setFailed(false);
    if (!fileId) return;
    fileLink(fileId).then(
      (link) => alive && setUrl(link),
      () => alive && setFailed(true),
    );
    return () => {
      alive = false;
    };
  }, [fileId]);

  return (
    <NodeViewWrapper
      as="figure"
      className={`note-image${selected ? ' is-selected' : ''}`}
      data-testid="image-block"
      contentEditable={false}
    >
      <div className="note-image-frame">
        {failed ? (
          <p className="note-media-error" role="status">
            <AlertIcon size={16} /> {t('image.failed')}
          </p>
        ) : url ? (
          <img src={url} alt={title || t('image.untitled')} onError={() => setFailed(true)} draggable={false} data-testid="image-element" />
        ) : (
          <span className="note-image-loading skeleton" aria-label={t('image.loading')} />
        )}
      </div>
      <figcaption className="note-image-caption">
        {editable ? (
          <input
            className="note-image-title"
            value={title}
            maxLength={LIMITS.imageTitle}
            placeholder={t('image.titlePlaceholder', { max: LIMITS.imageTitle })}
            aria-label={t('image.title')}
            onChange={(event) => updateAttributes({ title: event.target.value.slice(0, LIMITS.imageTitle) })}
            data-testid="image-title"
          />
        ) : (
          <span className="note-image-title-text">{title || t('image.untitled')}</span>
        )}
      </figcaption>
    </NodeViewWrapper>
  );
}
