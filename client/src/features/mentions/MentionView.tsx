import { useTranslation } from 'react-i18next';
import { NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { mentionAttrsOf, mentionText } from '@eln/shared';
import { useMentionedPerson } from './mentionPeople';
import './mentions.css';

/**
 * A mention in a note, as a chip reading `@` and the person's name now (the name it was written with
 * until the server answers, and where no note is around it). A person who may not read the note, or who
 * is not known, is struck through: they were not told of it.
 */
export function MentionView({ node }: NodeViewProps) {
  const { t } = useTranslation('editor');
  const attrs = mentionAttrsOf({ type: node.type.name, attrs: node.attrs }) ?? { userId: '', label: '' };
  const { person, known } = useMentionedPerson(attrs.userId);
  const name = person?.name ?? attrs.label;
  const unresolved = known && !person?.canRead;
  const why = !unresolved ? undefined : person ? t('mention.unresolved', { name }) : t('mention.unknown');
  return (
    <NodeViewWrapper
      as="span"
      className={`mention-chip${unresolved ? ' is-unresolved' : ''}`}
      data-testid="mention-chip"
      data-user-id={attrs.userId}
      title={why}
    >
      {mentionText({ userId: attrs.userId, label: name })}
      {why ? <span className="visually-hidden"> ({why})</span> : null}
    </NodeViewWrapper>
  );
}
