import { useTranslation } from 'react-i18next';
import { Icon, type IconProps } from '../../ui/icons';
import type { CommentLayer } from './useCommentLayer';

export const CommentIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.4A8 8 0 1 1 21 12Z" />
    <path d="M8.5 10.5h7M8.5 14h4.5" />
  </Icon>
);

/** The note header's toggle of the comment panel, with the count of open threads. */
export function CommentsButton({ layer }: { layer: CommentLayer }) {
  const { t } = useTranslation('editor');
  const open = layer.threads.data?.threads.filter((thread) => thread.resolved === null).length ?? 0;
  return (
    <button
      type="button"
      className={`btn btn-secondary btn-md comments-toggle${layer.open ? ' is-on' : ''}`}
      aria-pressed={layer.open}
      onClick={() => layer.setOpen(!layer.open)}
      title={t('comments.openTitle')}
      data-testid="comments-toggle"
    >
      <CommentIcon size={16} />
      {t('comments.open')}
      {open > 0 ? (
        <span className="comments-toggle-count" data-testid="comments-toggle-count">
          {open}
        </span>
      ) : null}
    </button>
  );
}
