import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { api } from '@eln/shared';
import { call } from '../../api';
import { may } from '../../session/model';
import { useSession } from '../../session/store';
import { ButtonLink } from '../../ui/Button';
import { ArrowLeftIcon, FolderIcon, LockIcon } from '../../ui/icons';
import { EmptyState, PageFrame } from '../../ui/PageFrame';
import { EMPTY_SELECTION } from '../people/selection';
import { ProjectForm, type ProjectPayload } from './ProjectForm';

const EMPTY = { title: '', description: '', selection: EMPTY_SELECTION };

/** `/project/create`: users the server lets create projects name one and choose its participants. */
export function ProjectCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const allowed = may(session, 'createProject');

  const create = async (payload: ProjectPayload) => {
    const answer = await call(api.projects.create, payload);
    void navigate(`/project/${answer.projectNo}`, { replace: true, state: { created: true } });
  };

  return (
    <PageFrame
      testId="page-project-create"
      title={t('pages.projectCreate.title')}
      description={t('pages.projectCreate.description')}
      icon={<FolderIcon size={20} />}
      actions={
        <ButtonLink to="/project" variant="ghost" icon={<ArrowLeftIcon size={16} />}>
          {t('project.backToList')}
        </ButtonLink>
      }
    >
      {allowed ? (
        <ProjectForm initial={EMPTY} submit={create} onCancel={() => void navigate('/project')} submitLabel={t('project.createSubmit')} />
      ) : session?.abilities === null ? null : (
        <div className="card" data-testid="project-create-forbidden">
          <EmptyState icon={<LockIcon size={26} />} title={t('project.noPermissionTitle')}>
            <p>{t('project.noPermissionBody')}</p>
            <ButtonLink to="/project" variant="secondary" className="empty-state-action">
              {t('project.backToList')}
            </ButtonLink>
          </EmptyState>
        </div>
      )}
    </PageFrame>
  );
}
