import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router-dom';
import { api, ERR, errorMessage, PROJECT_STATUS } from '@eln/shared';
import { apiErrorText, call, isApiError } from '../../api';
import { useApiMutation, useApiQuery } from '../../api/queries';
import { alert } from '../../modals/store';
import { currentLanguage } from '../../i18n';
import { formatDateTime, initials } from '../../lib/format';
import { parseRecordNo } from '../../lib/listParams';
import { useServerErrorPage } from '../../lib/useServerErrorPage';
import { Button, ButtonLink } from '../../ui/Button';
import { ArrowLeftIcon, BuildingIcon, FolderIcon, LockIcon, PencilIcon, SearchIcon, UsersIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { EmptyState, PageFrame } from '../../ui/PageFrame';
import { DetailRow, ErrorState, SkeletonBlock } from '../../ui/States';
import { selectionFromProject } from '../people/selection';
import { ProjectForm, type ProjectPayload } from './ProjectForm';
import { StatusBadge } from './StatusBadge';
import { CloseProjectDialog } from './CloseProjectDialog';
import { ProjectNotes } from '../notes/ProjectNotes';
import { ProjectExportCard } from '../exports/ProjectExportCard';
import { ProjectWebhooksCard } from '../webhooks/ProjectWebhooksCard';
import { SignatureIcon } from '../signatures/icons';

/** A project the caller may not see answers as one that does not exist (9002); a malformed number likewise. */
const isNotVisible = (error: unknown) => isApiError(error) && (error.status === ERR.notFound || error.status === ERR.validation);

/**
 * `/project/:id`: the project's information and participants. The leader (or an administrator) edits the
 * title, description and participants while it is in progress; the leader closes it (after confirming)
 * once a reviewer has signed a note; a completed project is read-only.
 */
/** `recordNo` stands in for the address's id (the style guide shows a fixed record). */
export function ProjectDetailPage({ recordNo }: { recordNo?: number } = {}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const location = useLocation();
  const { id } = useParams();
  const projectNo = recordNo ?? parseRecordNo(id);
  const project = useApiQuery(api.projects.detail, { projectNo: projectNo ?? 0 }, { enabled: projectNo !== null });
  useServerErrorPage(project);
  const [editing, setEditing] = useState(false);
  const { t: ta } = useTranslation('audit');
  const { t: ts } = useTranslation('signature');
  const [finishing, setFinishing] = useState(false);
  const [closing, setClosing] = useState(false);
  // The notes list shows each note's status and signatures, which closing changes.
  const finishProject = useApiMutation(api.projects.finish, { invalidates: [api.projects.editor, api.projects.detail] });
  const [notice, setNotice] = useState<'saved' | 'created' | 'finished' | null>(() =>
    (location.state as { created?: boolean } | null)?.created ? 'created' : null,
  );

  const detail = project.data;
  const notFound = projectNo === null || (project.phase === 'error' && isNotVisible(project.error));

  const save = async (payload: ProjectPayload) => {
    if (!detail) return;
    await call(api.projects.update, { projectNo: detail.no, ...payload });
    setEditing(false);
    setNotice('saved');
    project.reload();
  };

  /**
   * The leader closes the project for good, after the close dialog showed what closing leaves unfinished;
   * the server refuses it (2022) until a reviewer has signed.
   */
  const finish = async () => {
    if (!detail || finishing) return;
    setFinishing(true);
    try {
      await finishProject.mutateAsync({ projectNo: detail.no });
      setClosing(false);
      setNotice('finished');
      project.reload();
    } catch (error) {
      setClosing(false);
      // 2022 (no reviewer signature yet) and any other refusal, in the user's language.
      if (!(isApiError(error) && error.httpStatus === 401))
        void alert(apiErrorText(error, language), { tone: 'error', title: ta('projectFinish.refusedTitle') });
    } finally {
      setFinishing(false);
    }
  };

  const backLink = (
    <ButtonLink to="/project" variant="ghost" icon={<ArrowLeftIcon size={16} />} data-testid="project-back">
      {t('project.backToList')}
    </ButtonLink>
  );

  if (notFound) {
    return (
      <PageFrame testId="page-project-detail" title={t('pages.projectDetail.title')} icon={<FolderIcon size={20} />} actions={backLink}>
        <div className="card" data-testid="project-not-found">
          <EmptyState icon={<SearchIcon size={26} />} title={t('project.notFoundTitle')}>
            <p>{t('project.notFoundBody')}</p>
            <ButtonLink to="/project" variant="secondary" className="empty-state-action">
              {t('project.backToList')}
            </ButtonLink>
          </EmptyState>
        </div>
      </PageFrame>
    );
  }

  const completed = detail?.status === PROJECT_STATUS.completed;
  // The answer's abilities are the server's verdicts (a completed project allows neither).
  const canEdit = Boolean(detail?.abilities.modify);
  const canFinish = Boolean(detail?.abilities.finish);
  // Shown before anyone asks: closing needs a reviewer's signature, which the server checks again.
  const finishBlocked = detail?.finishBlockedBy === 'noReviewerSignature';

  return (
    <PageFrame
      testId="page-project-detail"
      title={detail ? (editing ? t('project.editTitle') : detail.title) : t('pages.projectDetail.title')}
      description={detail ? t('project.detailDescription', { no: detail.no, leader: detail.leaderName }) : undefined}
      icon={<FolderIcon size={20} />}
      actions={
        <>
          {backLink}
          {detail && !editing ? (
            <ButtonLink
              to={`/project/${detail.no}/signatures`}
              variant="secondary"
              icon={<SignatureIcon size={16} />}
              data-testid="project-signature-overview"
            >
              {ts('overview.open')}
            </ButtonLink>
          ) : null}
          {canFinish && !editing ? (
            <span className="action-with-reason">
              <Button
                variant="secondary"
                icon={<LockIcon size={16} />}
                onClick={() => setClosing(true)}
                loading={finishing}
                disabled={finishBlocked}
                aria-describedby={finishBlocked ? 'project-finish-reason' : undefined}
                data-testid="project-finish"
              >
                {ta('projectFinish.action')}
              </Button>
              {finishBlocked ? (
                <span className="action-reason" id="project-finish-reason" data-testid="project-finish-reason">
                  {errorMessage(ERR.noReviewerSignature, language)}
                </span>
              ) : null}
            </span>
          ) : null}
          {canEdit && !editing ? (
            <Button
              variant="primary"
              icon={<PencilIcon size={16} />}
              onClick={() => {
                setNotice(null);
                setEditing(true);
              }}
              data-testid="project-edit"
            >
              {t('project.edit')}
            </Button>
          ) : null}
        </>
      }
    >
      {project.phase === 'error' && !detail ? (
        <div className="card">
          <ErrorState message={apiErrorText(project.error, language)} onRetry={project.reload} testId="project-load-error" />
        </div>
      ) : !detail ? (
        <div className="detail-grid" aria-busy="true">
          <div className="card detail-card">
            <SkeletonBlock lines={5} />
          </div>
          <div className="card detail-card">
            <SkeletonBlock lines={4} />
          </div>
        </div>
      ) : editing ? (
        <ProjectForm
          key={detail.updatedAt}
          initial={{ title: detail.title, description: detail.description, selection: selectionFromProject(detail) }}
          submit={save}
          onCancel={() => setEditing(false)}
          submitLabel={t('project.saveChanges')}
        />
      ) : (
        <>
          {notice ? (
            <InlineAlert tone="success" testId="project-saved-notice">
              {notice === 'finished' ? ta('projectFinish.done') : notice === 'created' ? t('project.created') : t('project.saved')}
            </InlineAlert>
          ) : null}
          {completed ? (
            <InlineAlert tone="info" testId="project-completed-notice">
              {t('project.completedNotice')}
            </InlineAlert>
          ) : !detail.abilities.modify ? (
            <InlineAlert tone="info" testId="project-readonly-notice">
              {t('project.readOnlyNotice')}
            </InlineAlert>
          ) : null}
          <div className="detail-grid">
            <section className="card detail-card" aria-labelledby="project-info-title">
              <header className="card-header">
                <h2 className="card-title" id="project-info-title">
                  {completed ? <LockIcon size={16} /> : <FolderIcon size={16} />}
                  {t('project.info')}
                </h2>
                <StatusBadge status={detail.status} testId="project-status" />
              </header>
              <dl className="detail-list">
                <DetailRow label={t('project.fields.title')} testId="project-detail-title">
                  <span className="detail-strong">{detail.title}</span>
                </DetailRow>
                <DetailRow label={t('project.fields.description')} testId="project-detail-description">
                  {detail.description ? (
                    <span className="pre-line">{detail.description}</span>
                  ) : (
                    <span className="cell-muted">{t('project.noDescription')}</span>
                  )}
                </DetailRow>
                <DetailRow label={t('project.columns.leader')} testId="project-detail-leader">
                  <span className="person">
                    <span className="avatar avatar-sm" aria-hidden="true">
                      {initials(detail.leaderName)}
                    </span>
                    <span className="person-text">
                      <span className="person-name">{detail.leaderName}</span>
                      <span className="person-sub">{detail.userId}</span>
                    </span>
                  </span>
                </DetailRow>
                <DetailRow label={t('project.columns.status')}>
                  <StatusBadge status={detail.status} />
                </DetailRow>
                <DetailRow label={t('project.columns.created')} testId="project-created">
                  {formatDateTime(detail.createdAt, language)}
                </DetailRow>
                <DetailRow label={t('project.updatedAt')}>{formatDateTime(detail.updatedAt, language)}</DetailRow>
              </dl>
            </section>

            <section className="card detail-card" aria-labelledby="project-participants-title">
              <header className="card-header">
                <h2 className="card-title" id="project-participants-title">
                  <UsersIcon size={16} />
                  {t('project.fields.participants')}
                </h2>
                <span className="badge badge-accent" data-testid="project-participant-count">
                  {t('picker.people', { count: detail.participants.length })}
                </span>
              </header>
              {detail.departments.length > 0 ? (
                <ul className="chip-list chip-list-static" aria-label={t('picker.departments')}>
                  {detail.departments.map((department) => (
                    <li key={department.code} className="chip chip-department" data-testid={`project-dept-${department.code}`}>
                      <BuildingIcon size={14} className="chip-icon" />
                      <span className="chip-name">{department.name}</span>
                    </li>
                  ))}
                </ul>
              ) : null}
              {detail.participants.length > 0 ? (
                <ul className="people-list" data-testid="project-participants">
                  {detail.participants.map((participant) => (
                    <li key={participant.userNo} className="people-item" data-testid={`project-participant-${participant.userId}`}>
                      <span className="avatar" aria-hidden="true">
                        {initials(participant.name)}
                      </span>
                      <span className="person-text">
                        <span className="person-name">{participant.name}</span>
                        <span className="person-sub">{participant.userId}</span>
                      </span>
                      <span className="people-dept">{participant.departmentName ?? t('picker.noDepartment')}</span>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="cell-muted">{t('project.noParticipants')}</p>
              )}
            </section>
          </div>
          {/* Keyed by status: closing the project reloads its notes, now read-only. */}
          <ProjectNotes key={detail.status} projectNo={detail.no} />
          {detail.abilities.export ? <ProjectExportCard projectNo={detail.no} /> : null}
          {detail.abilities.webhooks ? <ProjectWebhooksCard projectNo={detail.no} /> : null}
        </>
      )}
      {closing && detail ? (
        <CloseProjectDialog
          projectNo={detail.no}
          title={detail.title}
          busy={finishing}
          onClose={() => setClosing(false)}
          onConfirm={() => void finish()}
        />
      ) : null}
    </PageFrame>
  );
}
