import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { adminUserUpdateRequest, api, ERR } from '@eln/shared';
import { apiErrorText, call, isApiError } from '../../api';
import { useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { formatDate, initials } from '../../lib/format';
import { validateForm } from '../../lib/forms';
import { useFormSubmit } from '../../lib/useFormSubmit';
import { parseRecordNo } from '../../lib/listParams';
import { useServerErrorPage } from '../../lib/useServerErrorPage';
import { alertApiError, confirm } from '../../modals/store';
import { useSession } from '../../session/store';
import { Badge } from '../../ui/Badge';
import { Button, ButtonLink } from '../../ui/Button';
import { ArrowLeftIcon, SearchIcon, UserIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { EmptyState, PageFrame } from '../../ui/PageFrame';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import { useDepartmentRows } from './DepartmentSelect';
import { FlagBadges } from './FlagBadges';
import { classifyUserError } from './userErrors';
import { updateBody, UserFields, valuesOfUser, type UserFormValues } from './UserFields';
import type { UserListReturn } from './UserListPage';

/** An address that names no account (or no number at all) shows "not found", not an error. */
const isMissing = (error: unknown) => isApiError(error) && (error.status === ERR.notFound || error.status === ERR.validation);

const same = (a: UserFormValues, b: UserFormValues) => JSON.stringify(a) === JSON.stringify(b);

/**
 * `/admin/:id`: an administrator edits a user: name, employee number, phone, department, level, the four
 * permission flags, active, and optionally a new password. Refusing to demote or deactivate oneself (5002)
 * shows beside the access fields.
 */
/** `recordNo` stands in for the address's id (the style guide shows a fixed record). */
export function UserEditPage({ recordNo }: { recordNo?: number } = {}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const navigate = useNavigate();
  const location = useLocation();
  const session = useSession();
  const { id } = useParams();
  const userNo = recordNo ?? parseRecordNo(id);
  const user = useApiQuery(api.users.detail, { userNo: userNo ?? 0 }, { enabled: userNo !== null });
  useServerErrorPage(user);
  const departments = useDepartmentRows();
  const [values, setValues] = useState<UserFormValues | null>(null);
  const [extra, setExtra] = useState<Partial<Record<'userId' | 'departmentCode', string>>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const refusalRef = useRef<HTMLDivElement>(null);

  const listSearch = (location.state as UserListReturn | null)?.listSearch ?? '';
  const backTo = `/admin${listSearch}`;
  const detail = user.data;
  const initial = detail ? valuesOfUser(detail) : null;
  const self = Boolean(detail && session && detail.userId.toLowerCase() === session.user.userId.toLowerCase());

  // A fresh detail (first load, after saving) resets the form to what the server holds.
  useEffect(() => {
    if (detail) setValues(valuesOfUser(detail));
  }, [detail]);

  useEffect(() => {
    if (refusal) refusalRef.current?.scrollIntoView({ block: 'center' });
  }, [refusal]);

  const dirty = Boolean(values && initial && !same(values, initial));

  const body = detail && values ? updateBody(detail.userNo, values) : null;
  const form = useFormSubmit({
    blocked: body === null,
    reset: () => {
      setSaved(false);
      setRefusal(null);
      setExtra({});
    },
    check: () => validateForm(adminUserUpdateRequest, body),
    send: async () => {
      if (!body) return;
      await call(api.users.update, body);
      setSaved(true);
      user.reload();
    },
    onError: (error, controls) => {
      const problem = classifyUserError(error, language);
      if (problem.kind === 'fields') controls.setErrors(problem.errors);
      else if (problem.kind === 'extra') setExtra({ [problem.field]: problem.message });
      else if (problem.kind === 'access') setRefusal(problem.message);
      else if (problem.kind === 'other') void alertApiError(error);
      controls.focusFirstInvalid();
    },
  });

  const back = async () => {
    if (dirty && !(await confirm(t('project.discardChanges')))) return;
    void navigate(backTo);
  };

  const backLink = (
    <ButtonLink to={backTo} variant="ghost" icon={<ArrowLeftIcon size={16} />} data-testid="user-back">
      {t('admin.userForm.backToList')}
    </ButtonLink>
  );

  if (userNo === null || (user.phase === 'error' && isMissing(user.error))) {
    return (
      <PageFrame testId="page-admin-user" title={t('pages.adminUser.title')} icon={<UserIcon size={20} />} actions={backLink}>
        <div className="card" data-testid="user-not-found">
          <EmptyState icon={<SearchIcon size={26} />} title={t('admin.userForm.notFoundTitle')}>
            <p>{t('admin.userForm.notFoundBody')}</p>
          </EmptyState>
        </div>
      </PageFrame>
    );
  }

  return (
    <PageFrame
      testId="page-admin-user"
      title={detail ? detail.name : t('pages.adminUser.title')}
      description={t('pages.adminUser.description')}
      icon={<UserIcon size={20} />}
      actions={backLink}
    >
      {user.phase === 'error' && !detail ? (
        <div className="card">
          <ErrorState message={apiErrorText(user.error, language)} onRetry={user.reload} testId="user-load-error" />
        </div>
      ) : !detail || !values ? (
        <div className="card form-card" aria-busy="true">
          <SkeletonBlock lines={8} />
        </div>
      ) : (
        <form ref={form.ref} className="form user-edit" onSubmit={form.onSubmit} noValidate data-testid="user-edit-form">
          <div className="card profile-card">
            <span className="avatar avatar-lg" aria-hidden="true">
              {initials(detail.name)}
            </span>
            <div className="profile-text">
              <p className="profile-name" data-testid="user-detail-name">
                {detail.name}
                {self ? <Badge tone="accent">{t('admin.userForm.you')}</Badge> : null}
              </p>
              <p className="profile-sub">
                <span className="cell-mono">{detail.userId}</span>
                <span aria-hidden="true"> · </span>
                {detail.departmentName ?? t('admin.userForm.noDepartment')}
              </p>
              <p className="profile-meta">{t('admin.userForm.registered', { date: formatDate(detail.createdAt, language) })}</p>
            </div>
            <div className="profile-badges">
              <Badge tone={detail.active ? 'success' : 'neutral'} dot testId="user-detail-active">
                {detail.active ? t('admin.users.active') : t('admin.users.inactive')}
              </Badge>
              <FlagBadges auth={detail.auth} />
            </div>
          </div>
          {saved ? (
            <InlineAlert tone="success" testId="user-saved-notice">
              {t('admin.userForm.saved')}
            </InlineAlert>
          ) : null}
          <div className="card form-card">
            <UserFields
              mode="edit"
              values={values}
              onChange={(patch) => {
                setSaved(false);
                setValues((current) => (current ? { ...current, ...patch } : current));
              }}
              errors={form.errors}
              extraErrors={extra}
              departments={departments.data ?? (departments.phase === 'error' ? [] : undefined)}
              self={self}
              accessAlert={
                refusal ? (
                  <div ref={refusalRef} className="form-alert">
                    <InlineAlert tone="error" testId="user-self-refusal">
                      {refusal}
                    </InlineAlert>
                  </div>
                ) : null
              }
            />
          </div>
          <div className="form-actions">
            <Button variant="secondary" onClick={() => void back()} disabled={form.busy} data-testid="user-cancel">
              {t('common.cancel')}
            </Button>
            <Button type="submit" variant="primary" loading={form.busy} disabled={!dirty && !form.busy} data-testid="user-save">
              {form.busy ? t('common.saving') : t('admin.userForm.save')}
            </Button>
          </div>
        </form>
      )}
    </PageFrame>
  );
}
