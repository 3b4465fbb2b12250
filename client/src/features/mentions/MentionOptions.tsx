import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { LockIcon } from '../../ui/icons';
import './mentions.css';

/** A person `@` offers: what every list shows (name, ID); a note's list also knows their department, the leader and who cannot read it. */
export interface OfferedPerson {
  userId: string;
  name: string;
  department?: string | null;
  leader?: boolean;
  canRead?: boolean;
}

export interface MentionOptionsProps {
  /** The listbox's ID, which the text field keeping the focus names (`aria-controls`); option n is `${id}-${n}`. */
  id: string;
  label: string;
  people: readonly OfferedPerson[];
  active: number;
  onPick(person: OfferedPerson): void;
  /** The pointer moved onto an option (a list that lets it choose). */
  onPoint?(index: number): void;
}

/**
 * The people `@` offers, as the note's editor and the comment fields both show them: a listbox whose
 * chosen option the text field names (`aria-activedescendant`). The focus never leaves the field, so the
 * list scrolls to follow the choice the arrow keys make.
 */
export function MentionOptions({ id, label, people, active, onPick, onPoint }: MentionOptionsProps) {
  const { t } = useTranslation('editor');
  const activeId = people.length ? `${id}-${Math.min(active, people.length - 1)}` : null;
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: 'nearest' });
  }, [activeId]);

  return (
    <ul className="mention-list" role="listbox" id={id} aria-label={label} data-testid="mention-list">
      {people.map((person, index) => (
        <li
          key={person.userId}
          id={`${id}-${index}`}
          role="option"
          aria-selected={index === active}
          // Reachable by script and pointer, never a tab stop: the text field keeps the focus.
          tabIndex={-1}
          className={`mention-option${index === active ? ' is-active' : ''}${person.canRead === false ? ' is-outside' : ''}`}
          data-testid="mention-option"
          data-user-id={person.userId}
          // A press does not take the focus (or the caret) from the text field.
          onMouseDown={(event) => event.preventDefault()}
          // Moving, not entering: a list opening under a resting pointer keeps its first choice.
          onMouseMove={() => onPoint?.(index)}
          onClick={() => onPick(person)}
          // The field passes its keys on; an option focused by an assistive tool still picks with Enter.
          onKeyDown={(event) => {
            if (event.key === 'Enter') onPick(person);
          }}
        >
          <span className="mention-option-avatar" aria-hidden="true">
            {person.name.slice(0, 1)}
          </span>
          <span className="mention-option-text">
            <span className="mention-option-name">{person.name}</span>
            <span className="mention-option-meta">{[person.department, person.userId].filter(Boolean).join(' · ')}</span>
            {person.canRead === false ? (
              <span className="mention-option-outside" data-testid="mention-option-outside">
                <LockIcon size={12} />
                {t('mention.cannotRead')}
              </span>
            ) : null}
          </span>
          {person.leader ? <span className="mention-option-badge">{t('mention.leader')}</span> : null}
        </li>
      ))}
    </ul>
  );
}
