import { useMemo, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { api, departmentCreateRequest, departmentUpdateRequest, ERR, errorMessage, LIMITS, type CallRequest } from '@eln/shared';
import { apiErrorText, call, isApiError } from '../../api';
import { currentLanguage } from '../../i18n';
import { formatDate, formatNumber } from '../../lib/format';
import { validateForm } from '../../lib/forms';
import { useFormSubmit } from '../../lib/useFormSubmit';
import { Dialog } from '../../modals/Dialog';
import { alertApiError } from '../../modals/store';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { BuildingIcon, ChevronRightIcon, MoveIcon, PencilIcon, PlusIcon, UsersIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { EmptyState, PageFrame } from '../../ui/PageFrame';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import { TotalText } from '../../ui/TotalText';
import { pathOf, subtreeOf, type DepartmentTreeRow } from '../people/departmentTree';
import { DepartmentSelect, useDepartmentRows } from './DepartmentSelect';
import { DirectorySyncPanel } from './DirectorySyncPanel';

type Editing =
  { kind: 'add'; parentCode: string | null } | { kind: 'rename'; row: DepartmentTreeRow } | { kind: 'move'; row: DepartmentTreeRow };

type Notice = { kind: 'added' | 'renamed' | 'moved'; code: string; name: string };

/**
 * `/admin/department`: the company's department tree with the number of active users in each. An
 * administrator adds departments (code, name, parent), renames them and moves them under another parent
 * or to the top; the server refuses a move that would make a cycle (6005), which the move dialog shows.
 * Above the tree, the directory panel synchronises departments and people from the company directory.
 */
export function DepartmentPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const departments = useDepartmentRows();
  const rows = departments.data;
  const [editing, setEditing] = useState<Editing | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());

  // Rows inside a collapsed department are hidden.
  const visible = useMemo(() => {
    if (!rows) return [];
    const hiddenUnder = new Set<string>();
    return rows.filter((row) => {
      if (row.parentCode && (collapsed.has(row.parentCode) || hiddenUnder.has(row.parentCode))) {
        hiddenUnder.add(row.code);
        return false;
      }
      return true;
    });
  }, [rows, collapsed]);

  const toggle = (code: string) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(code)) next.delete(code);
      else next.add(code);
      return next;
    });

  const done = (next: Notice) => {
    setEditing(null);
    setNotice(next);
    departments.reload();
  };

  const addButton = (
    <Button
      variant="primary"
      icon={<PlusIcon size={16} />}
      onClick={() => setEditing({ kind: 'add', parentCode: null })}
      data-testid="dept-add"
      disabled={!rows}
    >
      {t('admin.departments.add')}
    </Button>
  );

  const renderBody = () => {
    if (departments.phase === 'error' && !rows) {
      return <ErrorState message={apiErrorText(departments.error, language)} onRetry={departments.reload} testId="dept-load-error" />;
    }
    if (!rows) {
      return (
        <div className="dept-skeleton" aria-busy="true">
          <SkeletonBlock lines={6} />
        </div>
      );
    }
    if (rows.length === 0) {
      return (
        <div data-testid="dept-empty">
          <EmptyState icon={<BuildingIcon size={26} />} title={t('admin.departments.emptyTitle')}>
            <p>{t('admin.departments.emptyBody')}</p>
            <div className="empty-state-action">{addButton}</div>
          </EmptyState>
        </div>
      );
    }
    return (
      <ul className="dept-tree" data-testid="dept-tree">
        {visible.map((row) => {
          const open = !collapsed.has(row.code);
          return (
            <li
              key={row.code}
              className={notice?.code === row.code ? 'dept-node is-fresh' : 'dept-node'}
              style={{ '--depth': row.depth } as CSSProperties}
              data-testid={`dept-node-${row.code}`}
              data-depth={row.depth}
              data-parent={row.parentCode ?? ''}
            >
              <div className="dept-main">
                {row.childCount > 0 ? (
                  <button
                    type="button"
                    className="tree-toggle"
                    onClick={() => toggle(row.code)}
                    aria-expanded={open}
                    aria-label={open ? t('picker.collapse', { name: row.name }) : t('picker.expand', { name: row.name })}
                  >
                    <ChevronRightIcon size={15} className={open ? 'tree-chevron open' : 'tree-chevron'} />
                  </button>
                ) : (
                  <span className="tree-toggle-spacer" aria-hidden="true" />
                )}
                <span className="dept-icon" aria-hidden="true">
                  <BuildingIcon size={16} />
                </span>
                <span className="dept-text">
                  <span className="dept-name" data-testid={`dept-name-${row.code}`}>
                    {row.name}
                  </span>
                  <span className="dept-code">{row.code}</span>
                </span>
                {row.source === 'directory' ? (
                  <Badge tone="info" title={t('admin.departments.directoryHint')}>
                    {t('admin.departments.directory')}
                  </Badge>
                ) : null}
                {row.missingSince ? (
                  <Badge
                    tone="warning"
                    title={t('admin.departments.missingHint', { date: formatDate(row.missingSince, language) })}
                    testId={`dept-missing-${row.code}`}
                  >
                    {t('admin.departments.missing')}
                  </Badge>
                ) : null}
              </div>
              <Link
                to={`/admin?t=department&w=${encodeURIComponent(row.code)}`}
                className="dept-users"
                title={t('admin.departments.usersTitle', { n: row.userCount, total: row.totalUsers })}
                data-testid={`dept-users-${row.code}`}
              >
                <UsersIcon size={14} />
                {formatNumber(row.userCount, language)}
                {row.totalUsers !== row.userCount ? (
                  <span className="dept-users-total">/ {formatNumber(row.totalUsers, language)}</span>
                ) : null}
              </Link>
              <div className="dept-actions">
                <Button
                  size="sm"
                  variant="ghost"
                  icon={<PlusIcon size={15} />}
                  onClick={() => setEditing({ kind: 'add', parentCode: row.code })}
                  data-testid={`dept-add-child-${row.code}`}
                >
                  <span className="dept-action-label">{t('admin.departments.addChild')}</span>
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  icon={<PencilIcon size={15} />}
                  onClick={() => setEditing({ kind: 'rename', row })}
                  data-testid={`dept-rename-${row.code}`}
                >
                  <span className="dept-action-label">{t('admin.departments.rename')}</span>
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  icon={<MoveIcon size={15} />}
                  onClick={() => setEditing({ kind: 'move', row })}
                  data-testid={`dept-move-${row.code}`}
                >
                  <span className="dept-action-label">{t('admin.departments.move')}</span>
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
    );
  };

  return (
    <PageFrame
      testId="page-admin-department"
      title={t('pages.adminDepartment.title')}
      description={t('admin.departments.description')}
      icon={<BuildingIcon size={20} />}
      actions={addButton}
    >
      {notice ? (
        <InlineAlert tone="success" testId="dept-notice">
          {t(`admin.departments.${notice.kind}`, { name: notice.name })}
        </InlineAlert>
      ) : null}
      <DirectorySyncPanel onSynced={departments.reload} />
      <div className="card table-card">
        <div className="table-toolbar">
          <p className="table-total" data-testid="dept-total">
            {rows ? (
              <TotalText i18nKey="admin.departments.total" n={rows.length} />
            ) : (
              <span className="skeleton skeleton-text" style={{ width: 80 }} aria-hidden="true" />
            )}
          </p>
          <p className="table-legend">
            <UsersIcon size={14} /> {t('admin.departments.usersLegend')}
          </p>
        </div>
        {departments.phase === 'error' && rows ? (
          <ErrorState message={apiErrorText(departments.error, language)} onRetry={departments.reload} />
        ) : null}
        {renderBody()}
      </div>
      {editing && rows ? <DepartmentDialog editing={editing} rows={rows} onClose={() => setEditing(null)} onDone={done} /> : null}
    </PageFrame>
  );
}

interface DepartmentDialogProps {
  editing: Editing;
  rows: readonly DepartmentTreeRow[];
  onClose(): void;
  onDone(notice: Notice): void;
}

/** Add, rename or move one department. */
function DepartmentDialog({ editing, rows, onClose, onDone }: DepartmentDialogProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const current = editing.kind === 'add' ? null : editing.row;
  const [code, setCode] = useState('');
  const [name, setName] = useState(current?.name ?? '');
  const [parentCode, setParentCode] = useState(editing.kind === 'add' ? (editing.parentCode ?? '') : (current?.parentCode ?? ''));
  const [extra, setExtra] = useState<Partial<Record<'code' | 'parentCode', string>>>({});
  const [refusal, setRefusal] = useState<string | null>(null);

  const blocked = useMemo(() => (editing.kind === 'move' ? subtreeOf(rows, editing.row.code) : new Set<string>()), [editing, rows]);
  const title =
    editing.kind === 'add'
      ? t('admin.departments.addTitle')
      : editing.kind === 'rename'
        ? t('admin.departments.renameTitle', { name: editing.row.name })
        : t('admin.departments.moveTitle', { name: editing.row.name });

  const showRefusal = (error: unknown) => {
    if (isApiError(error) && error.status === ERR.departmentDuplicate) setExtra({ code: errorMessage(ERR.departmentDuplicate, language) });
    else if (isApiError(error) && error.status === ERR.departmentMissing)
      setExtra({ parentCode: errorMessage(ERR.departmentMissing, language) });
    else if (isApiError(error) && error.status === ERR.departmentCycle) setRefusal(errorMessage(ERR.departmentCycle, language));
    else if (!(isApiError(error) && error.httpStatus === 401)) void alertApiError(error);
  };

  const form = useFormSubmit({
    reset: () => {
      setExtra({});
      setRefusal(null);
    },
    check: () => {
      const body =
        editing.kind === 'add'
          ? { code, name, parentCode: parentCode || null }
          : editing.kind === 'rename'
            ? { code: editing.row.code, name }
            : { code: editing.row.code, parentCode: parentCode || null };
      return editing.kind === 'add' ? validateForm(departmentCreateRequest, body) : validateForm(departmentUpdateRequest, body);
    },
    send: async (data) => {
      // Adding checked the body with the create request's schema (see check), every other edit with the update's.
      if (editing.kind === 'add') await call(api.departments.create, data as CallRequest<typeof api.departments.create>);
      else await call(api.departments.update, data);
      const finalCode = editing.kind === 'add' ? data.code : editing.row.code;
      const finalName = editing.kind === 'move' ? editing.row.name : (data.name ?? name);
      onDone({
        kind: editing.kind === 'add' ? 'added' : editing.kind === 'rename' ? 'renamed' : 'moved',
        code: finalCode,
        name: finalName,
      });
    },
    onError: (error, controls) => {
      if (!controls.showFieldErrors(error)) showRefusal(error);
      controls.focusFirstInvalid();
    },
    leavesOnSuccess: true,
  });

  const path = current ? pathOf(rows, current.parentCode) : [];

  return (
    <Dialog
      title={title}
      icon={
        editing.kind === 'move' ? <MoveIcon size={20} /> : editing.kind === 'rename' ? <PencilIcon size={20} /> : <BuildingIcon size={20} />
      }
      size="md"
      onClose={form.busy ? undefined : onClose}
      testId="dept-dialog"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={form.busy} data-testid="dept-cancel">
            {t('common.cancel')}
          </Button>
          <Button variant="primary" type="submit" form="dept-form" loading={form.busy} data-testid="dept-save">
            {editing.kind === 'add'
              ? t('admin.departments.add')
              : editing.kind === 'rename'
                ? t('admin.departments.rename')
                : t('admin.departments.move')}
          </Button>
        </>
      }
    >
      <form id="dept-form" ref={form.ref} className="form" onSubmit={form.onSubmit} noValidate>
        {refusal ? (
          <InlineAlert tone="error" testId="dept-cycle-error">
            {refusal}
          </InlineAlert>
        ) : null}
        {editing.kind === 'add' ? (
          <TextField
            label={t('admin.departments.code')}
            required
            value={code}
            maxLength={LIMITS.departmentCode}
            onChange={(event) => setCode(event.target.value)}
            error={extra.code ?? form.fieldError('code')}
            hint={t('admin.departments.codeHint')}
            testId="dept-code-input"
            autoComplete="off"
            spellCheck={false}
          />
        ) : null}
        {editing.kind !== 'move' ? (
          <TextField
            label={t('admin.departments.name')}
            required
            value={name}
            maxLength={LIMITS.departmentName}
            onChange={(event) => setName(event.target.value)}
            error={form.fieldError('name')}
            testId="dept-name-input"
            autoComplete="off"
          />
        ) : (
          <p className="dialog-intro">
            {t('admin.departments.currentPlace')} <strong>{path.length ? path.join(' › ') : t('admin.departments.topLevel')}</strong>
          </p>
        )}
        {editing.kind !== 'rename' ? (
          <DepartmentSelect
            label={t('admin.departments.parent')}
            value={parentCode}
            onChange={(next) => {
              setParentCode(next);
              setRefusal(null);
            }}
            rows={rows}
            emptyLabel={t('admin.departments.topLevel')}
            disabledCodes={blocked}
            disabledSuffix={t('admin.departments.insideItself')}
            error={extra.parentCode ?? form.fieldError('parentCode')}
            hint={editing.kind === 'move' ? t('admin.departments.moveHint') : undefined}
            testId="dept-parent-select"
          />
        ) : null}
      </form>
    </Dialog>
  );
}
