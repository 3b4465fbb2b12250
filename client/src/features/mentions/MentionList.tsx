import { useEffect, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { api, type MentionCandidatesAnswer, type MentionPerson } from '@eln/shared';
import { useApiQuery } from '../../api/queries';
import { LockIcon } from '../../ui/icons';

export interface MentionListProps {
  labNoteNo: number;
  /** What was typed after `@`. */
  query: string;
  onPick(person: MentionPerson, shown: MentionCandidatesAnswer): void;
  /** Where the list lends its keys: the editor (or a composer) passes arrows and Enter on while the list shows. */
  keys: RefObject<((event: KeyboardEvent) => boolean) | null>;
  id: string;
  /** The chosen option's element ID (null: none), for the text field that keeps the focus to point at (`aria-activedescendant`). */
  onActive?(optionId: string | null): void;
}

/**
 * The people `@` offers, filtered by what was typed (the server's `/mention/candidates`), the first one
 * chosen: arrows move, Enter or Tab picks, a click picks. People who may not read the note say so.
 */
export function MentionList({ labNoteNo, query, onPick, keys, id, onActive }: MentionListProps) {
  const { t } = useTranslation('editor');
  const loaded = useApiQuery(api.mentions.candidates, { labNoteNo, ...(query ? { q: query } : {}) });
  const answer = loaded.data;
  const people = answer?.list ?? [];
  const [active, setActive] = useState(0);
  const listKey = people.map((person) => person.userId).join('\n');
  useEffect(() => setActive(0), [listKey]);
  const activeId = people.length ? `${id}-${Math.min(active, people.length - 1)}` : null;
  useEffect(() => {
    onActive?.(activeId);
  }, [activeId, onActive]);
  useEffect(() => () => onActive?.(null), [onActive]);

  useEffect(() => {
    keys.current = (event) => {
      if (!answer || people.length === 0) return false;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((current) => (current + step + people.length) % people.length);
        return true;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        const person = people[Math.min(active, people.length - 1)];
        if (person) onPick(person, answer);
        return true;
      }
      return false;
    };
    return () => {
      keys.current = null;
    };
  });

  let state: string | null = null;
  if (loaded.phase === 'error') state = t('mention.failed');
  else if (!answer) state = t('mention.loading');
  else if (people.length === 0) state = t('mention.none', { query });

  return (
    <div className="mention-popup" data-testid="mention-popup">
      {state ? (
        <p className="mention-popup-state" role="status">
          {state}
        </p>
      ) : (
        <ul className="mention-list" role="listbox" id={id} aria-label={t('mention.listLabel')} data-testid="mention-list">
          {people.map((person, index) => (
            <li
              key={person.userId}
              id={`${id}-${index}`}
              role="option"
              aria-selected={index === active}
              className={`mention-option${index === active ? ' is-active' : ''}${person.canRead ? '' : ' is-outside'}`}
              data-testid="mention-option"
              data-user-id={person.userId}
              // The editor keeps its caret: a press does not take focus from it.
              onMouseDown={(event) => event.preventDefault()}
              // Moving, not entering: a list opening under a resting pointer keeps its first choice.
              onMouseMove={() => setActive(index)}
              onClick={() => answer && onPick(person, answer)}
              // Never focused (the caret stays in the text, which passes keys on through `keys`); here for completeness.
              onKeyDown={(event) => {
                if (event.key === 'Enter' && answer) onPick(person, answer);
              }}
            >
              <span className="mention-option-avatar" aria-hidden="true">
                {person.name.slice(0, 1)}
              </span>
              <span className="mention-option-text">
                <span className="mention-option-name">{person.name}</span>
                <span className="mention-option-meta">{[person.department, person.userId].filter(Boolean).join(' · ')}</span>
                {person.canRead ? null : (
                  <span className="mention-option-outside" data-testid="mention-option-outside">
                    <LockIcon size={12} />
                    {t('mention.cannotRead')}
                  </span>
                )}
              </span>
              {person.leader ? <span className="mention-option-badge">{t('mention.leader')}</span> : null}
            </li>
          ))}
        </ul>
      )}
      <p className="mention-popup-hint" aria-hidden="true">
        {t('mention.hint')}
      </p>
    </div>
  );
}
