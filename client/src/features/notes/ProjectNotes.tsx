import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { api, ERR, LIMITS, PROJECT_STATUS, type NoteSummary } from '@eln/shared';
import { apiErrorText, call, isApiError } from '../../api';
import { useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { alertApiError, confirm } from '../../modals/store';
import { Button } from '../../ui/Button';
import { PlusIcon } from '../../ui/icons';
import { TemplatePicker } from '../templates/TemplatePicker';
import { InlineAlert } from '../../ui/InlineAlert';
import { EmptyState } from '../../ui/PageFrame';
import { ErrorState, SkeletonRows } from '../../ui/States';
import { SignatureLines } from '../signatures/SignatureManifest';
import { noteAuthors } from './importedAuthors';
import { NoteStatusBadge, initialsOf } from './NoteStatusBadge';
import { colorFor } from './presence';
import './projectNotes.css';
import { TableScroll } from '../../ui/TableScroll';

/** How often the list (and who is modifying each note) is read again. */
export const NOTES_REFRESH_MS = 5000;

const SKELETON = [40, 90, 50, 20, 40, 90, 60, 30];

function NoteGlyph() {
  return (
    <svg
      width="26"
      height="26"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M6.5 3.5h8l4 4v12a1.5 1.5 0 0 1-1.5 1.5H6.5A1.5 1.5 0 0 1 5 19.5v-14.5a1.5 1.5 0 0 1 1.5-1.5z" />
      <path d="M14.5 3.5v4h4M8.5 12h7M8.5 15.5h7" />
    </svg>
  );
}

/**
 * A project's lab notes (`/v1/project/editor`): number, title, writer, version, status, signatures (their
 * manifestation: printed name, meaning, time with zone, version, broken flag) and who is modifying each one
 * now, refreshed every few seconds; a participant creates a note (title required,
 * up to 25, unique in the project) and opens it; the writer or the leader deletes one. Which of these
 * the caller is offered, the answer's `abilities` say.
 */
export function ProjectNotes({ projectNo }: { projectNo: number }) {
  const { t } = useTranslation('editor');
  const { t: ts } = useTranslation('signature');
  const language = currentLanguage();
  const navigate = useNavigate();
  // Read again every few seconds while the page is in view (not while the tab is hidden).
  const editor = useApiQuery(api.projects.editor, { projectNo }, { refetchInterval: NOTES_REFRESH_MS });
  const answer = editor.data;
  const error = editor.phase === 'error' ? editor.error : null;
  const [title, setTitle] = useState('');
  const [templateNo, setTemplateNo] = useState<number | null>(null);
  const [titleError, setTitleError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const alive = useRef(true);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const info = answer?.info;
  const notes = answer?.list ?? [];
  const inProgress = info?.status === PROJECT_STATUS.inProgress;
  // What the caller may do comes with the answer (the server's policies), not from rules of our own.
  const canCreate = Boolean(info?.abilities.createNote);
  const mayDelete = (note: NoteSummary) => note.abilities.delete;

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = title.trim();
    if (!trimmed) {
      setTitleError(t('projectNotes.titleRequired'));
      return;
    }
    if (trimmed.length > LIMITS.noteTitle) {
      setTitleError(t('projectNotes.titleTooLong', { max: LIMITS.noteTitle }));
      return;
    }
    setCreating(true);
    setTitleError(null);
    try {
      const created = await call(api.notes.create, {
        projectNo,
        title: trimmed,
        ...(templateNo ? { templateNo } : {}),
      });
      setTitle('');
      setTemplateNo(null);
      // A new note is opened to be written in: its editor takes focus once it can be written.
      void navigate(`/note/${created.labNoteNo}`, { state: { newNote: created.labNoteNo } });
    } catch (failure) {
      if (isApiError(failure) && (failure.status === ERR.noteDuplicate || failure.status === ERR.validation))
        setTitleError(apiErrorText(failure, language));
      else await alertApiError(failure);
    } finally {
      if (alive.current) setCreating(false);
    }
  };

  const remove = async (note: NoteSummary) => {
    setNotice(null);
    if (!(await confirm(t('projectNotes.deleteConfirm', { title: note.title }), { okLabel: t('projectNotes.delete') }))) return;
    try {
      await call(api.notes.delete, { labNoteNo: note.no });
      setNotice(t('projectNotes.deleted', { title: note.title }));
      editor.reload();
    } catch (failure) {
      await alertApiError(failure);
    }
  };

  return (
    <section className="card project-notes" data-testid="project-notes" aria-labelledby="project-notes-title">
      <header className="card-header project-notes-header">
        <div>
          <h2 className="card-title" id="project-notes-title">
            <NoteGlyph />
            {t('projectNotes.title')}
          </h2>
          <p className="project-notes-description">{t('projectNotes.description')}</p>
        </div>
        {answer ? (
          <span className="badge badge-accent" data-testid="project-notes-count">
            {t('projectNotes.count', { n: notes.length })}
          </span>
        ) : null}
      </header>

      {canCreate ? (
        <form className="new-note-form" onSubmit={(event) => void create(event)} noValidate>
          <div className={`field new-note-field${titleError ? ' field-invalid' : ''}`}>
            <label className="visually-hidden" htmlFor="new-note-title">
              {t('projectNotes.newTitle')}
            </label>
            <input
              id="new-note-title"
              className="input"
              value={title}
              maxLength={LIMITS.noteTitle}
              placeholder={t('projectNotes.newPlaceholder')}
              aria-label={t('projectNotes.newTitle')}
              aria-invalid={titleError ? true : undefined}
              aria-describedby={titleError ? 'new-note-title-error' : undefined}
              onChange={(event) => {
                setTitle(event.target.value);
                setTitleError(null);
              }}
              data-testid="new-note-title"
            />
            <span
              className={`field-counter${title.trim().length > LIMITS.noteTitle ? ' field-counter-over' : ''}`}
              aria-hidden="true"
              data-testid="new-note-title-counter"
            >
              {title.trim().length}/{LIMITS.noteTitle}
            </span>
          </div>
          <TemplatePicker value={templateNo} onChange={setTemplateNo} />
          <Button type="submit" variant="primary" icon={<PlusIcon size={16} />} loading={creating} data-testid="new-note-submit">
            {t('projectNotes.create')}
          </Button>
          {titleError ? (
            <p className="field-error new-note-error" id="new-note-title-error" role="alert" data-testid="new-note-title-error">
              {titleError}
            </p>
          ) : null}
        </form>
      ) : info && !canCreate && inProgress ? (
        <p className="project-notes-hint">{t('projectNotes.cannotCreate')}</p>
      ) : null}

      {notice ? (
        <div className="project-notes-notice">
          <InlineAlert tone="success" testId="note-deleted-notice">
            {notice}
          </InlineAlert>
        </div>
      ) : null}

      {error && !answer ? (
        <ErrorState
          message={apiErrorText(error, language) || t('projectNotes.loadFailed')}
          onRetry={editor.reload}
          testId="project-notes-error"
        />
      ) : answer && notes.length === 0 ? (
        <EmptyState icon={<NoteGlyph />} title={t('projectNotes.empty')}>
          <p>{canCreate ? t('projectNotes.emptyBody') : t('projectNotes.emptyReadOnly')}</p>
        </EmptyState>
      ) : (
        <TableScroll>
          <table className="data-table" aria-busy={!answer}>
            <thead>
              <tr>
                <th scope="col">{t('projectNotes.columns.number')}</th>
                <th scope="col">{t('projectNotes.columns.title')}</th>
                <th scope="col">{t('projectNotes.columns.writer')}</th>
                <th scope="col" className="col-center">
                  {t('projectNotes.columns.version')}
                </th>
                <th scope="col">{t('projectNotes.columns.status')}</th>
                <th scope="col" className="col-signatures">
                  {ts('list.column')}
                </th>
                <th scope="col">{t('projectNotes.columns.modifiers')}</th>
                <th scope="col" className="col-actions">
                  <span className="visually-hidden">{t('projectNotes.columns.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {!answer ? (
                <SkeletonRows rows={3} columns={SKELETON} />
              ) : (
                notes.map((note) => (
                  <tr key={note.no} data-testid={`note-row-${note.no}`} data-note-no={note.no}>
                    <td
                      className="cell-mono col-nowrap"
                      data-label={t('projectNotes.columns.number')}
                      data-testid={`note-row-number-${note.no}`}
                    >
                      {note.labNoteNumber}
                    </td>
                    <td className="col-title" data-label={t('projectNotes.columns.title')}>
                      <Link to={`/note/${note.no}`} className="cell-link" data-testid={`note-open-${note.no}`}>
                        {note.title}
                      </Link>
                    </td>
                    <WriterCell note={note} />
                    <td className="col-center" data-label={t('projectNotes.columns.version')} data-testid={`note-row-version-${note.no}`}>
                      <span className="count-pill">v{note.version}</span>
                    </td>
                    <td data-label={t('projectNotes.columns.status')}>
                      <NoteStatusBadge status={note.status} />
                    </td>
                    <td className="col-signatures" data-label={ts('list.column')}>
                      <SignatureLines list={note.signatureList} testId={`note-row-signatures-${note.no}`} />
                    </td>
                    <td data-label={t('projectNotes.columns.modifiers')} data-testid={`note-row-modifiers-${note.no}`}>
                      {note.modifiers.length === 0 ? (
                        <span className="cell-muted">{t('projectNotes.nobody')}</span>
                      ) : (
                        <span className="note-row-modifiers">
                          {note.modifiers.map((modifier) => (
                            <span key={modifier.userId} className="note-row-modifier" title={modifier.userId}>
                              <span
                                className="avatar avatar-sm"
                                style={{ background: colorFor(modifier.userId), color: '#fff' }}
                                aria-hidden="true"
                              >
                                {initialsOf(modifier.name)}
                              </span>
                              {modifier.name}
                            </span>
                          ))}
                        </span>
                      )}
                    </td>
                    <td className="col-actions">
                      {mayDelete(note) ? (
                        <Button variant="ghost" size="sm" onClick={() => void remove(note)} data-testid={`note-delete-${note.no}`}>
                          {t('projectNotes.delete')}
                        </Button>
                      ) : null}
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

/** The writer column: an imported note's authors by name, marked as imported, above who imported it. */
function WriterCell({ note }: { note: NoteSummary }) {
  const { t } = useTranslation('editor');
  const authors = noteAuthors(note, t('notes.unknownAuthor'));
  return (
    <td data-label={t('projectNotes.columns.writer')} data-testid={`note-row-writer-${note.no}`}>
      <span className="cell-main">{authors.imported ? t('notes.importedAuthors', { names: authors.names }) : authors.names}</span>
      <span className="cell-sub">{authors.imported ? t('notes.importedBy', { name: authors.by }) : note.writer}</span>
    </td>
  );
}
