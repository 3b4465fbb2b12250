import { useEffect, useEffectEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, ERR, errorMessage, type DirectorySyncCounts, type DirectorySyncRun, type ErrorCode } from '@eln/shared';
import { apiErrorText, call, isApiError } from '../../api';
import { useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { formatDateTime, formatNumber } from '../../lib/format';
import { alertApiError } from '../../modals/store';
import { Badge, type BadgeTone } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Icon, type IconProps } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { ErrorState, SkeletonBlock } from '../../ui/States';

/** How often the panel asks how a running synchronisation is getting on. */
const PROGRESS_POLL_MS = 1_000;

/** Failures the panel itself shows from the run's record; anything else is alerted. */
const SHOWN_IN_PANEL = new Set<string>([
  ERR.departmentSync,
  ERR.directoryUrl,
  ERR.noDepartment,
  ERR.noUsers,
  ERR.directoryBindRefused,
  ERR.directorySyncRunning,
  ERR.directoryNotConfigured,
]);

const SyncIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M20 11a8 8 0 0 0-14.3-4.9L4 8" />
    <path d="M4 4v4h4" />
    <path d="M4 13a8 8 0 0 0 14.3 4.9L20 16" />
    <path d="M20 20v-4h-4" />
  </Icon>
);

const OUTCOME_TONES: Record<DirectorySyncRun['outcome'], BadgeTone> = {
  running: 'info',
  succeeded: 'success',
  failed: 'danger',
  interrupted: 'warning',
};

/**
 * The department screen's directory panel: where the directory is, the last synchronisation (when, by
 * whom, what it changed, why it failed) and "Sync now". A run can take seconds: while it runs the panel
 * shows its progress over itself and the rest of the page stays usable; it also notices a run another
 * administrator or the schedule started.
 */
export function DirectorySyncPanel({ onSynced }: { onSynced(): void }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const status = useApiQuery(api.departments.syncStatus, {});
  const [syncing, setSyncing] = useState(false);
  const [progress, setProgress] = useState<DirectorySyncRun | null>(null);
  const [finished, setFinished] = useState(false);
  const running = progress ?? status.data?.running ?? null;
  const watching = syncing || status.data?.running != null;
  const showOthersResult = useEffectEvent(() => {
    status.reload();
    onSynced();
  });

  // While a run goes on (ours or another's), its phase and count come from the status every second.
  useEffect(() => {
    if (!watching) return;
    const controller = new AbortController();
    const timer = setInterval(() => {
      call(api.departments.syncStatus, {}, { signal: controller.signal }).then(
        (next) => {
          setProgress(next.running);
          // Another's run has ended: show its result (and the tree it changed) once.
          if (!syncing && !next.running) {
            clearInterval(timer);
            showOthersResult();
          }
        },
        () => undefined,
      );
    }, PROGRESS_POLL_MS);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [watching, syncing]);

  const syncNow = async () => {
    setSyncing(true);
    setFinished(false);
    setProgress(null);
    try {
      await call(api.departments.sync, {});
      setFinished(true);
    } catch (error) {
      // A refused run is recorded with its reason, which the panel shows once it reloads.
      if (!(isApiError(error) && SHOWN_IN_PANEL.has(error.status)) && !(isApiError(error) && error.httpStatus === 401))
        void alertApiError(error);
    } finally {
      setSyncing(false);
      setProgress(null);
      status.reload();
      onSynced();
    }
  };

  const data = status.data;
  const header = (
    <div className="sync-header">
      <div className="sync-heading">
        <h2 className="card-title" id="sync-title">
          <SyncIcon size={18} />
          {t('admin.departments.sync.title')}
        </h2>
        {data?.directory ? (
          <p className="sync-source" data-testid="sync-source">
            <span>{t('admin.departments.sync.source', { url: data.directory.url })}</span>
            {data.directory.intervalMinutes ? (
              <span> · {t('admin.departments.sync.interval', { minutes: formatNumber(data.directory.intervalMinutes, language) })}</span>
            ) : null}
          </p>
        ) : null}
      </div>
      {data?.configured ? (
        <Button
          variant="secondary"
          icon={<SyncIcon size={16} />}
          loading={syncing}
          disabled={running !== null}
          onClick={() => void syncNow()}
          data-testid="sync-now"
        >
          {t('admin.departments.sync.syncNow')}
        </Button>
      ) : null}
    </div>
  );

  const renderBody = () => {
    if (status.phase === 'error' && !data)
      return <ErrorState message={apiErrorText(status.error, language)} onRetry={status.reload} testId="sync-load-error" />;
    if (!data) return <SkeletonBlock lines={3} />;
    if (!data.configured) {
      return (
        <p className="sync-muted" data-testid="sync-not-configured">
          {t('admin.departments.sync.notConfigured')}
        </p>
      );
    }
    return (
      <>
        {finished && data.last?.outcome === 'succeeded' ? (
          <InlineAlert tone="success" testId="sync-done">
            {t('admin.departments.sync.done')}
          </InlineAlert>
        ) : null}
        {data.last ? (
          <LastRun run={data.last} />
        ) : (
          <p className="sync-muted" data-testid="sync-never">
            {t('admin.departments.sync.never')}
          </p>
        )}
      </>
    );
  };

  return (
    <section className="card sync-panel" aria-labelledby="sync-title" data-testid="sync-panel" aria-busy={running !== null || syncing}>
      {header}
      <div className="sync-body">
        {renderBody()}
        {syncing || running ? <ProgressOverlay run={running} ours={syncing} /> : null}
      </div>
    </section>
  );
}

/** Over the panel (not the page) while a run goes on: its phase and how many entries it has read. */
function ProgressOverlay({ run, ours }: { run: DirectorySyncRun | null; ours: boolean }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const phase = run?.phase ?? 'connecting';
  return (
    <div className="sync-overlay" data-testid="sync-progress" data-phase={phase}>
      <span className="spinner sync-spinner" aria-hidden="true" />
      <div role="status" aria-live="polite">
        <p className="sync-phase">{t(`admin.departments.sync.phase.${phase}`, { n: formatNumber(run?.entriesRead ?? 0, language) })}</p>
        <p className="sync-muted">
          {ours || !run
            ? t('admin.departments.sync.busyHint')
            : t('admin.departments.sync.otherRunning', { when: formatDateTime(run.startedAt, language) })}
        </p>
      </div>
    </div>
  );
}

function LastRun({ run }: { run: DirectorySyncRun }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const seconds = run.finishedAt ? (new Date(run.finishedAt).getTime() - new Date(run.startedAt).getTime()) / 1000 : null;
  return (
    <div className="sync-last" data-testid="sync-last" data-outcome={run.outcome}>
      <p className="sync-summary">
        <Badge tone={OUTCOME_TONES[run.outcome]} testId="sync-outcome" dot>
          {t(`admin.departments.sync.outcome.${run.outcome}`)}
        </Badge>
        <span>{t('admin.departments.sync.lastRun', { when: formatDateTime(run.startedAt, language) })}</span>
        <span className="sync-muted">
          {run.actor
            ? t('admin.departments.sync.byPerson', { name: run.actor.name ?? run.actor.userId })
            : t('admin.departments.sync.bySchedule')}
          {seconds !== null
            ? ` · ${t('admin.departments.sync.duration', { seconds: formatNumber(Math.round(seconds * 10) / 10, language) })}`
            : null}
        </span>
      </p>
      {run.outcome === 'failed' && run.errorCode ? <FailureAlert code={run.errorCode} detail={run.errorDetail} /> : null}
      {run.outcome === 'interrupted' ? (
        <InlineAlert tone="warning" testId="sync-interrupted">
          {t('admin.departments.sync.interruptedBody')}
        </InlineAlert>
      ) : null}
      {run.outcome === 'succeeded' && run.counts ? <CountsView counts={run.counts} /> : null}
      {run.notes.length > 0 ? <NotesView run={run} /> : null}
    </div>
  );
}

function FailureAlert({ code, detail }: { code: ErrorCode; detail: string | null }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  return (
    <InlineAlert tone="error" testId="sync-error">
      <p>
        <strong>{errorMessage(code, language)}</strong> {t('admin.departments.sync.failedBody')} <span className="sync-code">({code})</span>
      </p>
      {detail ? <p className="sync-detail">{detail}</p> : null}
    </InlineAlert>
  );
}

const DEPARTMENT_COUNTS = ['read', 'created', 'updated', 'missing', 'restored', 'skipped'] as const;
const PEOPLE_COUNTS = ['read', 'created', 'updated', 'moved', 'deactivated', 'reactivated', 'skipped'] as const;
/** Shown even when zero: the others appear only when something happened. */
const ALWAYS_SHOWN = new Set(['read', 'created', 'updated', 'moved', 'deactivated', 'missing']);

function CountsView({ counts }: { counts: DirectorySyncCounts }) {
  const { t } = useTranslation();
  const changed =
    DEPARTMENT_COUNTS.some((k) => k !== 'read' && k !== 'skipped' && counts.departments[k] > 0) ||
    PEOPLE_COUNTS.some((k) => k !== 'read' && k !== 'skipped' && counts.users[k] > 0);
  return (
    <>
      <div className="sync-counts">
        <CountGroup
          title={t('admin.departments.sync.departments')}
          keys={DEPARTMENT_COUNTS}
          values={counts.departments}
          testId="sync-counts-departments"
        />
        <CountGroup title={t('admin.departments.sync.people')} keys={PEOPLE_COUNTS} values={counts.users} testId="sync-counts-people" />
      </div>
      {!changed ? (
        <p className="sync-muted" data-testid="sync-no-changes">
          {t('admin.departments.sync.noChanges')}
        </p>
      ) : null}
    </>
  );
}

function CountGroup<K extends string>({
  title,
  keys,
  values,
  testId,
}: {
  title: string;
  keys: readonly K[];
  values: Record<K, number>;
  testId: string;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  return (
    <div className="sync-count-group" data-testid={testId}>
      <h3>{title}</h3>
      <dl>
        {keys
          .filter((key) => ALWAYS_SHOWN.has(key) || values[key] > 0)
          .map((key) => (
            <div key={key} className={countClass(key, values[key])} data-testid={`${testId}-${key}`}>
              <dt>{t(`admin.departments.sync.counts.${key as DirectorySyncCountKey}`)}</dt>
              <dd>{formatNumber(values[key], language)}</dd>
            </div>
          ))}
      </dl>
    </div>
  );
}

/** Changes stand out; entries left out stand out as a warning. */
function countClass(key: string, value: number): string {
  if (key === 'read' || value === 0) return 'sync-count';
  return key === 'skipped' ? 'sync-count is-skipped' : 'sync-count is-changed';
}

type DirectorySyncCountKey = (typeof DEPARTMENT_COUNTS)[number] | (typeof PEOPLE_COUNTS)[number];

function NotesView({ run }: { run: DirectorySyncRun }) {
  const { t } = useTranslation();
  const total = run.notesTotal;
  return (
    <details className="sync-notes" data-testid="sync-notes">
      <summary>{t('admin.departments.sync.notesTitle', { n: total })}</summary>
      <ul>
        {run.notes.map((note) => (
          <li key={`${note.entry}-${note.reason}`}>
            <code>{note.entry}</code>
            <span>{t(`admin.departments.sync.reasons.${note.reason}`)}</span>
          </li>
        ))}
      </ul>
      {total > run.notes.length ? (
        <p className="sync-muted">{t('admin.departments.sync.notesMore', { n: total - run.notes.length, kept: run.notes.length })}</p>
      ) : null}
    </details>
  );
}
