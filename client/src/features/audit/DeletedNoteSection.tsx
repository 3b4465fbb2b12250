import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeletedNoteAnswer } from '@eln/shared';
import { SkeletonBlock } from '../../ui/States';
import { AuditTimeText, CopyButton } from './AuditBits';

// The editor's read-only view: loaded only when a record names a deleted note, not with the audit screen.
const StaticDocument = lazy(() => import('../editor/StaticDocument').then((m) => ({ default: m.StaticDocument })));

/**
 * A note deleted since the record: what it was and its last saved version, blocks and writers, so that
 * deleting a note never hides its content from the administrators who read the trail.
 */
export function DeletedNoteSection({ note, headingId }: { note: DeletedNoteAnswer; headingId: string }) {
  const { t } = useTranslation('audit');
  const version = note.lastVersion;
  const writers = version
    ? [...new Set(Object.values(version.authors).flatMap((people) => people.map((person) => person.name)))].sort()
    : [];
  return (
    <section className="audit-section audit-deleted-note" aria-labelledby={headingId} data-testid="audit-deleted-note">
      <header className="audit-section-head">
        <h3 className="audit-section-title" id={headingId}>
          {t('detail.deletedNote.title')}
        </h3>
        <p className="audit-sub">{t('detail.deletedNote.hint')}</p>
      </header>
      <dl className="audit-fields">
        <div className="audit-field">
          <dt>{t('detail.deletedNote.note')}</dt>
          <dd data-testid="audit-deleted-note-title">
            <span className="audit-strong">{note.title}</span> <span className="audit-mono audit-sub">{note.labNoteNumber}</span>
          </dd>
        </div>
        <div className="audit-field">
          <dt>{t('detail.deletedNote.deletedAt')}</dt>
          <dd>
            <AuditTimeText iso={note.deletedAt} inline />
          </dd>
        </div>
        {version ? (
          <>
            <div className="audit-field">
              <dt>{t('detail.deletedNote.lastVersion')}</dt>
              <dd data-testid="audit-deleted-note-version">
                {t('detail.deletedNote.savedBy', { version: version.version, name: version.savedBy.name })}{' '}
                <AuditTimeText iso={version.savedAt} inline />
              </dd>
            </div>
            <div className="audit-field">
              <dt>SHA-256</dt>
              <dd>
                <code className="audit-hash">{version.blocksHash}</code>
                <CopyButton text={version.blocksHash} label="SHA-256" testId="audit-deleted-note-hash-copy" />
              </dd>
            </div>
            <div className="audit-field audit-field-wide">
              <dt>{t('detail.deletedNote.writers')}</dt>
              <dd data-testid="audit-deleted-note-writers">
                {writers.length ? writers.join(', ') : <span className="cell-muted">—</span>}
              </dd>
            </div>
          </>
        ) : null}
      </dl>
      {version ? (
        <Suspense fallback={<SkeletonBlock lines={4} />}>
          <StaticDocument
            blocks={version.blockList}
            testId="audit-deleted-note-document"
            label={t('detail.deletedNote.content', { version: version.version })}
          />
        </Suspense>
      ) : (
        <p className="audit-no-values" data-testid="audit-deleted-note-never-saved">
          {t('detail.deletedNote.neverSaved')}
        </p>
      )}
    </section>
  );
}
