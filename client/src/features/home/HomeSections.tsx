import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import {
  api,
  type InboxActivity,
  type InboxNote,
  type InboxRecent,
  type InboxSectionAnswer,
  type InboxSignature,
  type InboxTemplate,
} from '@eln/shared';
import { useApiQuery, type Loaded } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { formatDateTime, formatNumber } from '../../lib/format';
import { Badge } from '../../ui/Badge';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import {
  AlertIcon,
  ArrowRightIcon,
  CheckCircleIcon,
  Icon,
  LockIcon,
  PencilIcon,
  PlusIcon,
  SchemaIcon,
  SparkleIcon,
  TemplateIcon,
  type IconProps,
} from '../../ui/icons';
import { relativeTime } from './when';
import './home.css';

/*
 * The home's sections below the counts (issue 48): what waits for the reader, their unfinished notes, what
 * they opened last, and what happened in their projects. Each section is its own `/v1/inbox` call, shown
 * as it arrives, with its own skeleton, empty state and error; every row opens the place to act.
 */

/** Rows of a section's first page; "Show more" adds pages of the same size. */
const PAGE_SIZE = 5;

const NoteIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
    <path d="M14 3v5h5M9 13h6M9 17h4" />
  </Icon>
);
const SignIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 20h16" />
    <path d="M6 16c2-6 4-9 5-9s-1 7 1 7 2-4 3-4 1 3 3 3" />
  </Icon>
);
const InboxIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 13l2.5-7.5A2 2 0 0 1 8.4 4h7.2a2 2 0 0 1 1.9 1.5L20 13v5a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2z" />
    <path d="M4 13h4l1.5 2.5h5L16 13h4" />
  </Icon>
);
const ClockIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M12 7.5V12l3 2" />
  </Icon>
);
const PulseIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 12h4l2.5-6 5 12 2.5-6H21" />
  </Icon>
);

/** A time as "3 hours ago", with the date and time in the reader's zone on hover. */
function When({ at }: { at: string }) {
  const language = currentLanguage();
  return (
    <time className="home-when" dateTime={at} title={formatDateTime(at, language)}>
      {relativeTime(at, language)}
    </time>
  );
}

/** One section's card: its title, count and body. */
function HomeCard({
  id,
  title,
  icon,
  count,
  busy,
  children,
}: {
  id: string;
  title: string;
  icon: ReactNode;
  count?: number | null;
  busy: boolean;
  children: ReactNode;
}) {
  return (
    <section className="card home-card" aria-labelledby={`home-${id}-title`} aria-busy={busy} data-testid={`home-${id}`}>
      <header className="home-card-head">
        <span className="home-card-icon">{icon}</span>
        <h2 id={`home-${id}-title`} className="home-card-title">
          {title}
        </h2>
        {count ? (
          <span className="home-count" data-testid={`home-${id}-count`}>
            {formatNumber(count, currentLanguage())}
          </span>
        ) : null}
      </header>
      {children}
    </section>
  );
}

function EmptySection({ icon, title, hint, testId }: { icon: ReactNode; title: string; hint: string; testId: string }) {
  return (
    <div className="home-empty" data-testid={testId}>
      <span className="home-empty-icon">{icon}</span>
      <p className="home-empty-title">{title}</p>
      <p className="home-empty-hint">{hint}</p>
    </div>
  );
}

function SectionError({ load, testId }: { load: Loaded<unknown>; testId: string }) {
  const { t } = useTranslation('home');
  return <ErrorState message={t('failed')} onRetry={load.reload} testId={testId} />;
}

/** A row: an icon, a title that opens the place to act, what it is about, and when. */
function Row({
  to,
  icon,
  tone = 'neutral',
  title,
  meta,
  detail,
  badges,
  at,
  action,
  testId,
}: {
  to: string;
  icon: ReactNode;
  tone?: 'neutral' | 'accent' | 'warning' | 'success' | 'violet';
  title: string;
  meta?: ReactNode;
  detail?: ReactNode;
  badges?: ReactNode;
  at: string;
  action?: string;
  testId: string;
}) {
  return (
    <li className="home-row">
      <Link to={to} className="home-row-link" data-testid={testId}>
        <span className={`home-row-icon tone-${tone}`}>{icon}</span>
        <span className="home-row-main">
          <span className="home-row-title">{title}</span>
          {meta ? <span className="home-row-meta">{meta}</span> : null}
          {detail ? <span className="home-row-detail">{detail}</span> : null}
          {badges ? <span className="home-row-badges">{badges}</span> : null}
        </span>
        <span className="home-row-side">
          <When at={at} />
          {action ? (
            <span className="home-row-action">
              {action}
              <ArrowRightIcon size={14} />
            </span>
          ) : null}
        </span>
      </Link>
    </li>
  );
}

const noteMeta = (number: string, project: string) => (
  <>
    <span className="home-mono">{number}</span>
    <span aria-hidden="true"> · </span>
    {project}
  </>
);

type PagedSection = 'signatures' | 'templates' | 'notes';
/** A paged section's answer: its rows and their count. */
type PagedAnswer<S extends PagedSection> = InboxSectionAnswer<S> & { totalCount: number };

/** Page `page` of a paged section, once it is asked for. */
function useSectionPage<S extends PagedSection>(section: S, page: number): Loaded<PagedAnswer<S>> {
  return useApiQuery(api.inbox.section, { section, page, pageSize: PAGE_SIZE }, { keepPrevious: false }) as Loaded<PagedAnswer<S>>;
}

/** The pages after the first, each loaded on its own, and the button that asks for the next. */
function MorePages<S extends PagedSection>({
  section,
  total,
  renderItems,
}: {
  section: S;
  total: number;
  renderItems: (answer: InboxSectionAnswer<S>) => ReactNode;
}) {
  const { t } = useTranslation('home');
  const [pages, setPages] = useState(1);
  const more = pages * PAGE_SIZE < total;
  return (
    <>
      {Array.from({ length: pages - 1 }, (_, index) => (
        <LaterPage key={index + 2} section={section} page={index + 2} renderItems={renderItems} />
      ))}
      {more ? (
        <button type="button" className="home-more" onClick={() => setPages(pages + 1)} data-testid={`home-${section}-more`}>
          {t('more')}
        </button>
      ) : null}
    </>
  );
}

function LaterPage<S extends PagedSection>({
  section,
  page,
  renderItems,
}: {
  section: S;
  page: number;
  renderItems: (answer: InboxSectionAnswer<S>) => ReactNode;
}) {
  const load = useSectionPage(section, page);
  if (load.phase === 'error') return <SectionError load={load} testId={`home-${section}-error-${page}`} />;
  if (!load.data) return <SkeletonBlock lines={2} />;
  return <>{renderItems(load.data)}</>;
}

function SignatureRows({ answer }: { answer: InboxSectionAnswer<'signatures'> }) {
  const { t } = useTranslation('home');
  const row = (item: InboxSignature) =>
    item.kind === 'request' ? (
      <Row
        key={`s${item.signatureId}`}
        to={item.path}
        icon={<SignIcon size={18} />}
        tone="accent"
        title={item.note.title}
        meta={noteMeta(item.note.labNoteNumber, item.project.title)}
        detail={t('waiting.request', { name: item.by.name, meaning: t(`meaning.${item.meaning}`) })}
        at={item.at}
        action={t('waiting.sign')}
        testId={`home-signature-${item.note.labNoteNo}`}
      />
    ) : (
      <Row
        key={`s${item.signatureId}`}
        to={item.path}
        icon={<AlertIcon size={18} />}
        tone="warning"
        title={item.note.title}
        meta={noteMeta(item.note.labNoteNumber, item.project.title)}
        detail={
          <>
            {t('waiting.declined', { name: item.by.name })}
            {item.reason ? <q className="home-reason">{item.reason}</q> : null}
          </>
        }
        at={item.at}
        action={t('waiting.revise')}
        testId={`home-declined-${item.note.labNoteNo}`}
      />
    );
  return <ul className="home-list">{answer.list.map(row)}</ul>;
}

function TemplateRows({ answer }: { answer: InboxSectionAnswer<'templates'> }) {
  const { t } = useTranslation('home');
  const row = (item: InboxTemplate) =>
    item.kind === 'approve' ? (
      <Row
        key={`a${item.templateNo}`}
        to={item.path}
        icon={<TemplateIcon size={18} />}
        tone="violet"
        title={item.title}
        detail={t('waiting.approve', { name: item.by?.name ?? '—', revision: item.revision })}
        at={item.at}
        action={t('waiting.review')}
        testId={`home-template-${item.templateNo}`}
      />
    ) : (
      <Row
        key={`r${item.templateNo}`}
        to={item.path}
        icon={<TemplateIcon size={18} />}
        tone="warning"
        title={item.title}
        detail={
          <>
            {item.by ? t('waiting.returned', { name: item.by.name }) : t('waiting.returnedToYou')}
            {item.reason ? <q className="home-reason">{item.reason}</q> : null}
          </>
        }
        at={item.at}
        action={t('waiting.revise')}
        testId={`home-returned-${item.templateNo}`}
      />
    );
  return <ul className="home-list">{answer.list.map(row)}</ul>;
}

/** One group of "Waiting for me" (signatures or templates): its heading and rows, or its own skeleton or error. */
function WaitingGroup<S extends 'signatures' | 'templates'>({
  section,
  load,
  renderItems,
}: {
  section: S;
  load: Loaded<PagedAnswer<S>>;
  renderItems: (answer: InboxSectionAnswer<S>) => ReactNode;
}) {
  const { t } = useTranslation('home');
  if (load.phase === 'error') return <SectionError load={load} testId={`home-${section}-error`} />;
  if (!load.data) return <SkeletonBlock lines={3} />;
  const { totalCount } = load.data as { totalCount: number };
  if (!totalCount) return null;
  return (
    <div className="home-group" data-testid={`home-group-${section}`}>
      <h3 className="home-group-title">
        {section === 'signatures' ? t('waiting.signatures') : t('waiting.templates')}
        <span className="home-group-count">{formatNumber(totalCount, currentLanguage())}</span>
      </h3>
      {renderItems(load.data)}
      <MorePages section={section} total={totalCount} renderItems={renderItems} />
    </div>
  );
}

function WaitingCard() {
  const { t } = useTranslation('home');
  const signatures = useSectionPage('signatures', 1);
  const templates = useSectionPage('templates', 1);
  const total = signatures.data && templates.data ? signatures.data.totalCount + templates.data.totalCount : null;
  const renderSignatures = (answer: InboxSectionAnswer<'signatures'>) => <SignatureRows answer={answer} />;
  const renderTemplates = (answer: InboxSectionAnswer<'templates'>) => <TemplateRows answer={answer} />;
  return (
    <HomeCard
      id="waiting"
      title={t('waiting.title')}
      icon={<InboxIcon size={18} />}
      count={total}
      busy={signatures.phase === 'loading' || templates.phase === 'loading'}
    >
      {total === 0 && signatures.phase !== 'error' && templates.phase !== 'error' ? (
        <EmptySection
          icon={<CheckCircleIcon size={22} />}
          title={t('waiting.empty')}
          hint={t('waiting.emptyHint')}
          testId="home-waiting-empty"
        />
      ) : (
        <>
          <WaitingGroup section="signatures" load={signatures} renderItems={renderSignatures} />
          <WaitingGroup section="templates" load={templates} renderItems={renderTemplates} />
        </>
      )}
    </HomeCard>
  );
}

function NoteRows({ answer }: { answer: InboxSectionAnswer<'notes'> }) {
  const { t } = useTranslation('home');
  const row = (item: InboxNote) => (
    <Row
      key={item.note.labNoteNo}
      to={item.path}
      icon={<NoteIcon size={18} />}
      tone={item.unsaved ? 'warning' : 'accent'}
      title={item.note.title}
      meta={noteMeta(item.note.labNoteNumber, item.project.title)}
      badges={
        <>
          {item.unsaved === 'neverSaved' ? <Badge tone="warning">{t('notes.neverSaved')}</Badge> : null}
          {item.unsaved === 'changedSinceSave' ? <Badge tone="info">{t('notes.changedSinceSave', { version: item.version })}</Badge> : null}
          {item.pendingSignatures ? <Badge tone="accent">{t('notes.pending', { count: item.pendingSignatures })}</Badge> : null}
        </>
      }
      at={item.changedAt}
      testId={`home-note-${item.note.labNoteNo}`}
    />
  );
  return <ul className="home-list">{answer.list.map(row)}</ul>;
}

function MyNotesCard() {
  const { t } = useTranslation('home');
  const notes = useSectionPage('notes', 1);
  const renderNotes = (answer: InboxSectionAnswer<'notes'>) => <NoteRows answer={answer} />;
  let body: ReactNode;
  if (notes.phase === 'error') body = <SectionError load={notes} testId="home-notes-error" />;
  else if (!notes.data) body = <SkeletonBlock lines={4} />;
  else if (!notes.data.totalCount)
    body = <EmptySection icon={<SparkleIcon size={22} />} title={t('notes.empty')} hint={t('notes.emptyHint')} testId="home-notes-empty" />;
  else
    body = (
      <>
        {renderNotes(notes.data)}
        <MorePages section="notes" total={notes.data.totalCount} renderItems={renderNotes} />
      </>
    );
  return (
    <HomeCard
      id="notes"
      title={t('notes.title')}
      icon={<NoteIcon size={18} />}
      count={notes.data?.totalCount}
      busy={notes.phase === 'loading'}
    >
      {body}
    </HomeCard>
  );
}

const RECENT_ICONS: Record<InboxRecent['kind'], ReactNode> = {
  note: <NoteIcon size={18} />,
  template: <TemplateIcon size={18} />,
  schema: <SchemaIcon size={18} />,
};

function RecentCard() {
  const { t } = useTranslation('home');
  const recent = useApiQuery(api.inbox.section, { section: 'recent' }) as Loaded<InboxSectionAnswer<'recent'>>;
  let body: ReactNode;
  if (recent.phase === 'error') body = <SectionError load={recent} testId="home-recent-error" />;
  else if (!recent.data) body = <SkeletonBlock lines={4} />;
  else if (!recent.data.list.length)
    body = (
      <EmptySection icon={<ClockIcon size={22} />} title={t('recent.empty')} hint={t('recent.emptyHint')} testId="home-recent-empty" />
    );
  else
    body = (
      <ul className="home-list">
        {recent.data.list.map((item) => (
          <Row
            key={`${item.kind}${item.no}`}
            to={item.path}
            icon={RECENT_ICONS[item.kind]}
            tone={item.kind === 'note' ? 'accent' : item.kind === 'template' ? 'violet' : 'neutral'}
            title={item.title}
            meta={
              <>
                {t(`recent.kinds.${item.kind}`)}
                {item.number ? (
                  <>
                    <span aria-hidden="true"> · </span>
                    <span className="home-mono">{item.number}</span>
                  </>
                ) : null}
                {item.projectTitle ? (
                  <>
                    <span aria-hidden="true"> · </span>
                    {item.projectTitle}
                  </>
                ) : null}
              </>
            }
            at={item.openedAt}
            testId={`home-recent-${item.kind}-${item.no}`}
          />
        ))}
      </ul>
    );
  return (
    <HomeCard id="recent" title={t('recent.title')} icon={<ClockIcon size={18} />} busy={recent.phase === 'loading'}>
      {body}
    </HomeCard>
  );
}

const EVENT_ICONS: Record<InboxActivity['event'], { icon: ReactNode; tone: string }> = {
  noteCreated: { icon: <PlusIcon size={14} />, tone: 'accent' },
  versionSaved: { icon: <PencilIcon size={14} />, tone: 'neutral' },
  signatureGiven: { icon: <SignIcon size={14} />, tone: 'success' },
  signatureRemoved: { icon: <AlertIcon size={14} />, tone: 'warning' },
  projectClosed: { icon: <LockIcon size={14} />, tone: 'neutral' },
  templateApproved: { icon: <CheckCircleIcon size={14} />, tone: 'violet' },
};

/**
 * A sentence of the catalogue with its placeholders filled by elements: the names and titles people typed
 * go in as text, never through a parser of the sentence's markup.
 */
function sentence(template: string, values: Record<string, ReactNode>): ReactNode[] {
  return template.split(/\{\{(\w+)\}\}/).map((part, index) => (index % 2 === 1 ? <span key={index}>{values[part] ?? part}</span> : part));
}

/** An event as a sentence, who did it and the record it names emphasised. */
function ActivityItem({ item }: { item: InboxActivity }) {
  const { t } = useTranslation('home');
  const { icon, tone } = EVENT_ICONS[item.event];
  const record = <strong className="home-event-record">{item.note?.title ?? item.project?.title ?? item.template?.title ?? ''}</strong>;
  const text = sentence(t(`activity.events.${item.event}`, { skipInterpolation: true }), {
    actor: <strong>{item.actor ?? t('activity.system')}</strong>,
    note: record,
    project: record,
    template: record,
    version: item.version ?? '—',
    meaning: item.meaning ? t(`meaning.${item.meaning}`) : '—',
    signer: <strong>{item.signer ?? '—'}</strong>,
  });
  return (
    <li className="home-event">
      <span className={`home-event-dot tone-${tone}`}>{icon}</span>
      <Link to={item.path} className="home-event-link" data-testid={`home-activity-${item.seq}`}>
        <span className="home-event-text">{text}</span>
        <span className="home-event-meta">
          {item.note ? (
            <>
              <span className="home-mono">{item.note.labNoteNumber}</span>
              <span aria-hidden="true"> · </span>
            </>
          ) : null}
          {item.project && item.note ? (
            <>
              {item.project.title}
              <span aria-hidden="true"> · </span>
            </>
          ) : null}
          <When at={item.at} />
        </span>
        {item.reason ? <span className="home-event-reason">{t('activity.reason', { reason: item.reason })}</span> : null}
      </Link>
    </li>
  );
}

/** The activity's newest page: asked for by the card (for its busy state) and by its first page alike. */
const ACTIVITY_FIRST = { section: 'activity', pageSize: 10 } as const;

function ActivityPage({ before, last, onMore }: { before?: number; last: boolean; onMore: (next: number) => void }) {
  const { t } = useTranslation('home');
  const load = useApiQuery(api.inbox.section, before === undefined ? ACTIVITY_FIRST : { ...ACTIVITY_FIRST, before }, {
    keepPrevious: false,
  }) as Loaded<InboxSectionAnswer<'activity'>>;
  if (load.phase === 'error') return <SectionError load={load} testId="home-activity-error" />;
  if (!load.data) return <SkeletonBlock lines={4} />;
  const { list, next } = load.data;
  if (!list.length && before === undefined)
    return (
      <EmptySection
        icon={<PulseIcon size={22} />}
        title={t('activity.empty')}
        hint={t('activity.emptyHint')}
        testId="home-activity-empty"
      />
    );
  return (
    <>
      <ol className="home-timeline">
        {list.map((item) => (
          <ActivityItem key={item.seq} item={item} />
        ))}
      </ol>
      {last && next !== null ? (
        <button type="button" className="home-more" onClick={() => onMore(next)} data-testid="home-activity-more">
          {t('more')}
        </button>
      ) : null}
    </>
  );
}

function ActivityCard() {
  const { t } = useTranslation('home');
  const [cursors, setCursors] = useState<Array<number | undefined>>([undefined]);
  // The first page's load (the page below shares it): the card is busy while the newest events load.
  const newest = useApiQuery(api.inbox.section, ACTIVITY_FIRST, { keepPrevious: false });
  return (
    <HomeCard id="activity" title={t('activity.title')} icon={<PulseIcon size={18} />} busy={newest.phase === 'loading'}>
      {cursors.map((before, index) => (
        <ActivityPage
          key={before ?? 'newest'}
          before={before}
          last={index === cursors.length - 1}
          onMore={(next) => setCursors([...cursors, next])}
        />
      ))}
    </HomeCard>
  );
}

/** The four sections, in two columns on wide screens: what to act on first, then what happened. */
export function HomeSections() {
  return (
    <div className="home-grid" data-testid="home-sections">
      <div className="home-column">
        <WaitingCard />
        <MyNotesCard />
      </div>
      <div className="home-column">
        <RecentCard />
        <ActivityCard />
      </div>
    </div>
  );
}
