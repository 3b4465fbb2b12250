import { useTranslation } from 'react-i18next';
import type { SearchHit } from '@eln/shared';
import { snippetParts } from './searchParams';

/** A snippet as text, its matched parts in <mark>: React escapes every part, so an answer can never inject markup. */
export function Snippet({ snippet }: { snippet: SearchHit['snippet'] }) {
  return (
    <span className="search-snippet" data-testid="search-snippet">
      {snippetParts(snippet.text, snippet.marks).map((part, index) =>
        part.marked ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>,
      )}
    </span>
  );
}

/**
 * What a hit says: its title, where it is (note number, project, the saved version or the draft it was found in), whether it is signed or finished, for an
 * attachment whose contents were not searched why it was found by its name only, and the snippet.
 */
export function SearchHitView({ hit }: { hit: SearchHit }) {
  const { t } = useTranslation();
  // A project's own hit is its title already; a note's (or its file's) place is its number, project and
  // the version the match was found in (or its unsaved draft).
  const found =
    hit.labNoteNo === null ? null : hit.version === null ? t('search.draftOnly') : t('search.savedVersion', { version: hit.version });
  const place = hit.kind === 'project' ? '' : [hit.labNoteNumber, hit.projectTitle, found].filter(Boolean).join(' · ');
  return (
    <>
      <span className="search-hit-head">
        <span className="search-hit-title">{hit.title || '—'}</span>
        {hit.signed ? <span className="search-hit-flag">{t('search.signed')}</span> : null}
        {hit.finished ? <span className="search-hit-flag">{t('search.finished')}</span> : null}
      </span>
      {place ? <span className="search-hit-place">{place}</span> : null}
      {hit.fileText && hit.fileText !== 'extracted' ? (
        <span className="search-hit-file-text" data-testid="search-hit-file-text" data-file-text={hit.fileText}>
          {t(`search.fileText.${hit.fileText}`)}
        </span>
      ) : null}
      {hit.snippet.text ? <Snippet snippet={hit.snippet} /> : null}
    </>
  );
}
