import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  api,
  NOTEBOOK_WIDE_WEBHOOK_EVENTS,
  WEBHOOK_EVENTS,
  WEBHOOK_LIMITS,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  type WebhookEvent,
} from '@eln/shared';
import { call } from '../../api';
import { apiErrorText } from '../../api/errors';
import { apiQueryKey, useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Checkbox, TextField } from '../../ui/Field';
import { PlusIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import { TableScroll } from '../../ui/TableScroll';
import './webhooks.css';

type Notice = { tone: 'success' | 'error'; text: string } | null;
type Draft = { url: string; description: string; events: WebhookEvent[] };

/**
 * Webhook endpoints of one scope: the whole notebook (Admin → Webhooks) or a project (its page, for its
 * leader). Register (the signing secret shown once), change the events, turn off or on, delete, and each
 * endpoint's delivery log with "send again". What may be done is the server's verdict (`abilities`).
 */
export function WebhooksPanel({ projectNo }: { projectNo?: number }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const endpoints = useApiQuery(api.webhooks.list, projectNo === undefined ? {} : { projectNo });
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: apiQueryKey(api.webhooks.list) });
  // A project's endpoint is sent its project's events only; the notebook's, every event.
  const offered = WEBHOOK_EVENTS.filter((event) => projectNo === undefined || !NOTEBOOK_WIDE_WEBHOOK_EVENTS.includes(event));

  const act = async (run: () => Promise<unknown>, success: string) => {
    setNotice(null);
    try {
      await run();
      setNotice({ tone: 'success', text: success });
    } catch (error) {
      setNotice({ tone: 'error', text: apiErrorText(error, language) });
    }
    await refresh();
  };

  const data = endpoints.data;
  return (
    <div className="webhooks" data-testid="webhooks">
      {notice ? (
        <InlineAlert tone={notice.tone} testId="webhooks-notice">
          {notice.text}
        </InlineAlert>
      ) : null}
      {secret ? (
        <div className="webhooks-secret" data-testid="webhooks-secret">
          <InlineAlert tone="warning">{t('webhooks.secretOnce')}</InlineAlert>
          <code className="webhooks-secret-value" data-testid="webhooks-secret-value">
            {secret}
          </code>
          <Button size="sm" variant="ghost" onClick={() => setSecret(null)}>
            {t('webhooks.secretDone')}
          </Button>
        </div>
      ) : null}
      {creating ? (
        <EndpointForm
          offered={offered}
          initial={{ url: '', description: '', events: offered.slice(0, 1) }}
          title={t('webhooks.addTitle')}
          submitLabel={t('webhooks.add')}
          onCancel={() => setCreating(false)}
          onSubmit={async (draft) => {
            const created = await call(api.webhooks.create, { ...draft, ...(projectNo === undefined ? {} : { projectNo }) });
            setCreating(false);
            setSecret(created.secret);
            setNotice({ tone: 'success', text: t('webhooks.added', { url: draft.url }) });
            await refresh();
          }}
        />
      ) : data?.abilities.create ? (
        <div>
          <Button variant="primary" icon={<PlusIcon size={16} />} onClick={() => setCreating(true)} data-testid="webhooks-add">
            {t('webhooks.addTitle')}
          </Button>
        </div>
      ) : null}
      {endpoints.phase === 'loading' && !data ? <SkeletonBlock lines={3} /> : null}
      {endpoints.phase === 'error' && !data ? (
        <ErrorState message={apiErrorText(endpoints.error, language)} onRetry={endpoints.reload} testId="webhooks-load-error" />
      ) : null}
      {data && data.list.length === 0 && !creating ? <p className="webhooks-empty">{t('webhooks.empty')}</p> : null}
      <ul className="webhooks-list" data-testid="webhooks-list">
        {data?.list.map((endpoint) => (
          <EndpointCard
            key={endpoint.endpointId}
            endpoint={endpoint}
            offered={offered}
            act={act}
            showProject={projectNo === undefined}
            onSecret={setSecret}
          />
        ))}
      </ul>
    </div>
  );
}

function EndpointCard({
  endpoint,
  offered,
  act,
  showProject,
  onSecret,
}: {
  endpoint: WebhookEndpointRow;
  offered: readonly WebhookEvent[];
  act: (run: () => Promise<unknown>, success: string) => Promise<void>;
  showProject: boolean;
  /** A new secret, shown once above the list. */
  onSecret(secret: string): void;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [confirmRotate, setConfirmRotate] = useState(false);
  const overlap = { hours: WEBHOOK_LIMITS.secretOverlapHours };
  const rotate = () =>
    act(
      async () => onSecret((await call(api.webhooks.rotateSecret, { endpointId: endpoint.endpointId })).secret),
      t('webhooks.rotated', overlap),
    ).then(() => setConfirmRotate(false));
  const [logOpen, setLogOpen] = useState(false);
  const { endpointId } = endpoint;
  return (
    <li className="webhooks-card" data-testid="webhooks-endpoint" data-endpoint={endpointId}>
      <div className="webhooks-card-head">
        <div className="webhooks-card-title">
          <strong className="webhooks-url">{endpoint.url}</strong>
          {endpoint.description ? <span>{endpoint.description}</span> : null}
          <span className="webhooks-facts">
            {showProject ? `${endpoint.projectTitle ?? t('webhooks.allProjects')} · ` : ''}
            {t('webhooks.owner', { name: endpoint.owner.name })}
          </span>
        </div>
        <Badge tone={endpoint.active ? 'success' : 'neutral'} testId="webhooks-state">
          {endpoint.active ? t('webhooks.on') : t('webhooks.off')}
        </Badge>
      </div>
      <div className="webhooks-events">
        {endpoint.events.map((event) => (
          <Badge key={event}>{t(`webhooks.events.${event}`)}</Badge>
        ))}
      </div>
      <p className="webhooks-facts">
        {t('webhooks.pending', { count: endpoint.pendingCount })} · {t('webhooks.failed', { count: endpoint.failedCount })}
      </p>
      {endpoint.previousSecretUntil ? (
        <p className="webhooks-facts" data-testid="webhooks-previous-secret">
          {t('webhooks.previousSecret', { until: formatDateTime(endpoint.previousSecretUntil, language) })}
        </p>
      ) : null}
      {endpoint.disabledReason ? (
        <InlineAlert tone="warning" testId="webhooks-disabled-reason">
          {t('webhooks.disabledReason', { reason: endpoint.disabledReason })}
        </InlineAlert>
      ) : null}
      {editing ? (
        <EndpointForm
          offered={offered}
          initial={{ url: endpoint.url, description: endpoint.description, events: endpoint.events }}
          title={t('webhooks.editTitle')}
          submitLabel={t('webhooks.save')}
          onCancel={() => setEditing(false)}
          onSubmit={async (draft) => {
            await act(() => call(api.webhooks.update, { endpointId, ...draft }), t('webhooks.saved'));
            setEditing(false);
          }}
        />
      ) : null}
      {endpoint.abilities.update || endpoint.abilities.delete ? (
        <div className="webhooks-actions">
          {endpoint.abilities.update ? (
            <>
              <Button size="sm" onClick={() => setEditing(true)} disabled={editing} data-testid="webhooks-edit">
                {t('webhooks.edit')}
              </Button>
              <Button
                size="sm"
                onClick={() =>
                  void act(
                    () => call(api.webhooks.update, { endpointId, active: !endpoint.active }),
                    endpoint.active ? t('webhooks.turnedOff') : t('webhooks.turnedOn'),
                  )
                }
                data-testid="webhooks-toggle"
              >
                {endpoint.active ? t('webhooks.turnOff') : t('webhooks.turnOn')}
              </Button>
              {confirmRotate ? (
                <Button size="sm" variant="danger" onClick={() => void rotate()} data-testid="webhooks-rotate-confirm">
                  {t('webhooks.rotateConfirm', overlap)}
                </Button>
              ) : (
                <Button size="sm" variant="ghost" onClick={() => setConfirmRotate(true)} data-testid="webhooks-rotate">
                  {t('webhooks.rotate')}
                </Button>
              )}
            </>
          ) : null}
          <Button size="sm" variant="ghost" onClick={() => setLogOpen(!logOpen)} aria-expanded={logOpen} data-testid="webhooks-log-toggle">
            {t('webhooks.log')}
          </Button>
          {endpoint.abilities.delete ? (
            confirmDelete ? (
              <Button
                size="sm"
                variant="danger"
                onClick={() => void act(() => call(api.webhooks.delete, { endpointId }), t('webhooks.deleted'))}
                data-testid="webhooks-delete-confirm"
              >
                {t('webhooks.deleteConfirm')}
              </Button>
            ) : (
              <Button size="sm" variant="ghost" onClick={() => setConfirmDelete(true)} data-testid="webhooks-delete">
                {t('webhooks.delete')}
              </Button>
            )
          ) : null}
        </div>
      ) : null}
      {logOpen ? <DeliveryLog endpointId={endpointId} act={act} /> : null}
    </li>
  );
}

function EndpointForm({
  offered,
  initial,
  title,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  offered: readonly WebhookEvent[];
  initial: Draft;
  title: string;
  submitLabel: string;
  onSubmit(draft: Draft): Promise<void>;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [draft, setDraft] = useState<Draft>(initial);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const toggle = (event: WebhookEvent, on: boolean) =>
    setDraft((d) => ({ ...d, events: on ? [...d.events, event] : d.events.filter((e) => e !== event) }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    setBusy(true);
    try {
      await onSubmit(draft);
    } catch (error) {
      setFailure(apiErrorText(error, language));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="webhooks-form" onSubmit={(e) => void submit(e)} noValidate data-testid="webhooks-form">
      <h3 className="webhooks-form-title">{title}</h3>
      <TextField
        label={t('webhooks.url')}
        value={draft.url}
        onChange={(e) => setDraft({ ...draft, url: e.target.value })}
        hint={t('webhooks.urlHint')}
        required
        testId="webhooks-url"
      />
      <TextField
        label={t('webhooks.descriptionLabel')}
        value={draft.description}
        onChange={(e) => setDraft({ ...draft, description: e.target.value })}
        testId="webhooks-description"
      />
      <fieldset className="webhooks-event-choice">
        <legend>{t('webhooks.eventsLabel')}</legend>
        {offered.map((event) => (
          <Checkbox
            key={event}
            label={t(`webhooks.events.${event}`)}
            checked={draft.events.includes(event)}
            onChange={(e) => toggle(event, e.target.checked)}
            testId={`webhooks-event-${event}`}
          />
        ))}
      </fieldset>
      {failure ? (
        <InlineAlert tone="error" testId="webhooks-form-error">
          {failure}
        </InlineAlert>
      ) : null}
      <div className="webhooks-actions">
        <Button variant="primary" type="submit" loading={busy} data-testid="webhooks-submit">
          {submitLabel}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          {t('webhooks.cancel')}
        </Button>
      </div>
    </form>
  );
}

const STATUS_TONE = { pending: 'warning', sending: 'warning', delivered: 'success', failed: 'danger', withheld: 'neutral' } as const;

function DeliveryLog({ endpointId, act }: { endpointId: number; act: (run: () => Promise<unknown>, success: string) => Promise<void> }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const log = useApiQuery(api.webhooks.deliveries, { endpointId, page: 1, pageSize: 20 });
  const resend = (row: WebhookDeliveryRow) =>
    void act(() => call(api.webhooks.redeliver, { deliveryId: row.deliveryId }), t('webhooks.redelivered')).then(() =>
      queryClient.invalidateQueries({ queryKey: apiQueryKey(api.webhooks.deliveries) }),
    );
  if (log.phase === 'error' && !log.data) return <ErrorState message={apiErrorText(log.error, language)} onRetry={log.reload} />;
  if (!log.data) return <SkeletonBlock lines={2} />;
  if (log.data.list.length === 0) return <p className="webhooks-empty">{t('webhooks.logEmpty')}</p>;
  return (
    <TableScroll label={t('webhooks.log')}>
      <table className="webhooks-log" data-testid="webhooks-log">
        <thead>
          <tr>
            <th scope="col">{t('webhooks.logEvent')}</th>
            <th scope="col">{t('webhooks.logStatus')}</th>
            <th scope="col">{t('webhooks.logAttempts')}</th>
            <th scope="col">{t('webhooks.logAnswer')}</th>
            <th scope="col">{t('webhooks.logTime')}</th>
            <th scope="col">
              <span className="visually-hidden">{t('webhooks.redeliver')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {log.data.list.map((row) => (
            <tr key={row.deliveryId} data-testid="webhooks-delivery">
              <td>{t(`webhooks.events.${row.event}`)}</td>
              <td>
                <Badge tone={STATUS_TONE[row.status]}>{t(`webhooks.status.${row.status}`)}</Badge>
              </td>
              <td>{row.attempts}</td>
              <td className="webhooks-answer">
                {row.lastStatus ?? '—'}
                {row.lastLatencyMs === null ? '' : ` · ${t('webhooks.latency', { ms: row.lastLatencyMs })}`}
                {row.lastError || row.lastResponse ? <span className="webhooks-excerpt">{row.lastError ?? row.lastResponse}</span> : null}
              </td>
              <td>{formatDateTime(row.lastAttemptAt ?? row.createdAt, language)}</td>
              <td>
                {row.abilities.redeliver ? (
                  <Button size="sm" variant="ghost" onClick={() => resend(row)} data-testid="webhooks-redeliver">
                    {t('webhooks.redeliver')}
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
