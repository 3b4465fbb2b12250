import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { api, mentionToken, splitMentions, type CommentPerson } from '@eln/shared';
import { useApiQuery } from '../../api/queries';
import { MentionOptions } from '../mentions/MentionOptions';

/*
 * Mentions as people write and read them: `@` in a text field offers the people who may read the note
 * (a listbox under the field, reached by the arrow keys), choosing one writes the token `@[userId]`
 * (shared/src/mentions.ts), and a text is shown with each token as the person's name. The hook and the
 * popup know nothing of comments: the note's own mentions can use them as they are.
 */

/** What a mention may be: a note's or a template draft's readers. */
export type MentionPlace = { labNoteNo: number } | { templateNo: number };

/** The people who may read the place, to offer after `@` (the server's list: project leader and participants). */
export function useMentionPeople(place: MentionPlace): CommentPerson[] {
  const loaded = useApiQuery(api.comments.mentionable, place);
  return loaded.data?.list ?? [];
}

/** How many people the popup offers at once. */
const OFFERED = 8;

/** The `@` being typed just before the caret: where it starts and what follows it; null when none is. */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const match = /(?:^|\s)@([^\s@[\]]{0,40})$/.exec(text.slice(0, caret));
  return match ? { start: caret - match[1]!.length - 1, query: match[1]! } : null;
}

/** The people whose name or ID holds the query (case and width ignored), at most OFFERED. */
export function matchingPeople(people: readonly CommentPerson[], query: string): CommentPerson[] {
  const wanted = query.normalize('NFKC').toLowerCase();
  return people.filter((p) => `${p.name} ${p.userId}`.normalize('NFKC').toLowerCase().includes(wanted)).slice(0, OFFERED);
}

/**
 * The suggestion state of one text field: call `update(text, caret)` as it changes, `keyDown` first in the
 * field's key handler (it answers whether it took the key), and `pick` when a person is chosen with the
 * pointer. `insert` is told the text with the token in place of the `@…` and where the caret goes.
 */
export function useMentionSuggestions(people: readonly CommentPerson[], insert: (text: string, caret: number) => void) {
  const [at, setAt] = useState<{ start: number; query: string; text: string; caret: number } | null>(null);
  const [active, setActive] = useState(0);
  const matches = useMemo(() => (at ? matchingPeople(people, at.query) : []), [people, at]);
  const open = at !== null;

  const update = (text: string, caret: number) => {
    const found = mentionQueryAt(text, caret);
    setAt(found ? { ...found, text, caret } : null);
    if (found?.query !== at?.query) setActive(0);
  };
  const pick = (person: CommentPerson) => {
    if (!at) return;
    const token = `${mentionToken(person.userId)} `;
    const text = at.text.slice(0, at.start) + token + at.text.slice(at.caret);
    setAt(null);
    insert(text, at.start + token.length);
  };
  const keyDown = (event: KeyboardEvent): boolean => {
    if (!open) return false;
    if (event.key === 'Escape') {
      setAt(null);
      return true;
    }
    if (!matches.length) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((index) => (index + step + matches.length) % matches.length);
      return true;
    }
    if (event.key === 'Enter' || event.key === 'Tab') {
      const chosen = matches[Math.min(active, matches.length - 1)];
      if (chosen) pick(chosen);
      return true;
    }
    return false;
  };
  return { open, matches, active: Math.min(active, Math.max(0, matches.length - 1)), update, pick, keyDown, close: () => setAt(null) };
}

/** The popup of suggestions under a field: the listbox the note's editor shows too, or a word that nobody matches. */
export function MentionPopup({
  id,
  matches,
  active,
  onPick,
}: {
  id: string;
  matches: readonly CommentPerson[];
  active: number;
  onPick(person: CommentPerson): void;
}) {
  const { t } = useTranslation('editor');
  return (
    <div className="mention-popup comment-mention-popup" data-testid="mention-popup">
      {matches.length === 0 ? (
        <p className="mention-popup-state" role="status">
          {t('comments.mentionNone')}
        </p>
      ) : (
        <MentionOptions id={id} label={t('comments.mentionList')} people={matches} active={active} onPick={onPick} />
      )}
    </div>
  );
}

/** A plain-text field that offers people after `@`; Mod-Enter submits. */
export function MentionTextarea({
  value,
  onChange,
  people,
  label,
  placeholder,
  onSubmit,
  onCancel,
  maxLength,
  testId,
  focusOnMount = false,
}: {
  value: string;
  onChange(value: string): void;
  people: readonly CommentPerson[];
  label: string;
  placeholder: string;
  onSubmit(): void;
  onCancel?(): void;
  maxLength: number;
  testId: string;
  /** Take the focus when shown: opened by the person's own action (a new comment, a reply), their typing goes here. */
  focusOnMount?: boolean;
}) {
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (focusOnMount) field.current?.focus();
  }, [focusOnMount]);
  const listId = useId();
  const suggestions = useMentionSuggestions(people, (text, caret) => {
    onChange(text);
    requestAnimationFrame(() => field.current?.setSelectionRange(caret, caret));
  });
  return (
    <div className="mention-field">
      <textarea
        ref={field}
        className="input mention-input"
        value={value}
        rows={3}
        maxLength={maxLength}
        aria-label={label}
        placeholder={placeholder}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={suggestions.open && suggestions.matches.length > 0}
        aria-controls={suggestions.open && suggestions.matches.length ? listId : undefined}
        aria-activedescendant={suggestions.open && suggestions.matches.length ? `${listId}-${suggestions.active}` : undefined}
        onChange={(event) => {
          onChange(event.target.value);
          suggestions.update(event.target.value, event.target.selectionStart);
        }}
        onKeyDown={(event) => {
          if (suggestions.keyDown(event)) {
            event.preventDefault();
            event.stopPropagation();
            return;
          }
          if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
            event.preventDefault();
            onSubmit();
          } else if (event.key === 'Escape' && onCancel) {
            event.preventDefault();
            onCancel();
          }
        }}
        onBlur={() => suggestions.close()}
        data-testid={testId}
      />
      {suggestions.open ? (
        <MentionPopup id={listId} matches={suggestions.matches} active={suggestions.active} onPick={suggestions.pick} />
      ) : null}
    </div>
  );
}

/** A text with its mention tokens shown as the people's names (`@Name`); an unknown person by their ID. */
export function MentionText({ text, names }: { text: string; names: ReadonlyMap<string, string> }): ReactNode {
  return splitMentions(text).map((part, index) =>
    'text' in part ? (
      <span key={index}>{part.text}</span>
    ) : (
      <span key={index} className="mention" data-user={part.userId} title={part.userId}>
        @{names.get(part.userId) ?? part.userId}
      </span>
    ),
  );
}
