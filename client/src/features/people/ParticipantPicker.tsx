import { useEffect, useId, useMemo, useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DepartmentSearchGroup } from '@eln/shared';
import { apiErrorText } from '../../api';
import { currentLanguage } from '../../i18n';
import { initials } from '../../lib/format';
import { useLoad } from '../../lib/useLoad';
import { Checkbox } from '../../ui/Field';
import { BuildingIcon, ChevronRightIcon, CloseIcon, SearchIcon, UsersIcon } from '../../ui/icons';
import { ErrorState } from '../../ui/States';
import { loadDirectory, searchUsers } from './directory';
import {
  departmentState,
  EMPTY_DIRECTORY,
  isUserSelected,
  setDepartment,
  setUser,
  subtreeUsers,
  usersOfGroups,
  type Directory,
  type PickedUser,
  type Selection,
} from './selection';

export interface ParticipantPickerProps {
  value: Selection;
  onChange(next: Selection): void;
  /** The message beside the picker (at least one person, unknown people). */
  error?: string | undefined;
  /** User IDs the server did not accept: their chips are marked. */
  invalidUserIds?: readonly string[];
  disabled?: boolean;
  label: string;
}

const SEARCH_DELAY_MS = 250;

/**
 * Chooses participants by department and by person. The tree (`/department/join`) shows every department
 * with its people; a department's checkbox takes the whole department. The search box asks
 * `/department/search`. Chosen people show as chips with their name and department.
 *
 * Test ids: `picker`, `picker-search`, `picker-dept-<code>`, `picker-dept-toggle-<code>`, `picker-user-<userId>`,
 * `picker-chip-<userId>`, `picker-chip-remove-<userId>`, `picker-dept-chip-<code>`, `picker-clear`, `picker-error`.
 */
export function ParticipantPicker({ value, onChange, error, invalidUserIds = [], disabled = false, label }: ParticipantPickerProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const id = useId();
  const loaded = useLoad((signal) => loadDirectory(signal), 'directory');
  const directory = loaded.data?.directory ?? EMPTY_DIRECTORY;
  const [term, setTerm] = useState('');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [expandedOnce, setExpandedOnce] = useState(false);

  // Open the top level once the tree arrives, so that the first departments and people are in view.
  useEffect(() => {
    if (expandedOnce || loaded.phase !== 'ready') return;
    setExpanded(new Set(directory.roots));
    setExpandedOnce(true);
  }, [loaded.phase, directory, expandedOnce]);

  const invalid = useMemo(() => new Set(invalidUserIds.map((userId) => userId.toLowerCase())), [invalidUserIds]);
  const toggleExpanded = (code: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(code)) next.delete(code);
      else next.add(code);
      return next;
    });

  const onUser = (user: PickedUser, on: boolean) => onChange(setUser(value, directory, user, on));
  const onDepartment = (code: string, on: boolean) => onChange(setDepartment(value, directory, code, on));
  const onUsers = (users: readonly PickedUser[], on: boolean) => onChange(users.reduce((selection, user) => setUser(selection, directory, user, on), value));

  const userRow = (user: PickedUser, depth: number) => (
    <li key={user.userId} className="tree-user" style={{ '--depth': depth } as CSSProperties}>
      <Checkbox
        testId={`picker-user-${user.userId}`}
        checked={isUserSelected(value, user.userId)}
        disabled={disabled}
        onChange={(event) => onUser(user, event.target.checked)}
        label={
          <span className="person">
            <span className="avatar avatar-sm" aria-hidden="true">
              {initials(user.name)}
            </span>
            <span className="person-text">
              <span className="person-name">{user.name}</span>
              <span className="person-sub">{user.userId}</span>
            </span>
          </span>
        }
      />
    </li>
  );

  const departmentRow = (code: string): ReactNode => {
    const node = directory.departments.get(code);
    if (!node) return null;
    const open = expanded.has(code);
    const people = directory.usersByDepartment.get(code) ?? [];
    const total = subtreeUsers(directory, code).length;
    const state = departmentState(value, directory, code);
    const hasContent = node.childCodes.length > 0 || people.length > 0;
    return (
      <li key={code} className="tree-item" data-testid={`picker-dept-row-${code}`}>
        <div className="tree-row" style={{ '--depth': node.depth } as CSSProperties}>
          <button
            type="button"
            className="tree-toggle"
            onClick={() => toggleExpanded(code)}
            aria-expanded={hasContent ? open : undefined}
            aria-label={open ? t('picker.collapse', { name: node.name }) : t('picker.expand', { name: node.name })}
            disabled={!hasContent}
            data-testid={`picker-dept-toggle-${code}`}
          >
            <ChevronRightIcon size={15} className={open ? 'tree-chevron open' : 'tree-chevron'} />
          </button>
          <Checkbox
            testId={`picker-dept-${code}`}
            checked={state === 'all'}
            indeterminate={state === 'some'}
            disabled={disabled}
            onChange={(event) => onDepartment(code, event.target.checked)}
            label={
              <span className="tree-label">
                <BuildingIcon size={15} className="tree-icon" />
                <span className="tree-name">{node.name}</span>
                <span className="tree-count" title={t('picker.people', { count: total })}>
                  {total}
                </span>
              </span>
            }
          />
        </div>
        {open && hasContent ? (
          <ul className="tree-children">
            {node.childCodes.map((child) => departmentRow(child))}
            {people.map((user) => userRow(user, node.depth + 1))}
          </ul>
        ) : null}
      </li>
    );
  };

  const unassigned = directory.usersByDepartment.get(null) ?? [];
  const unassignedOpen = expanded.has('\u0000none');
  const unassignedChosen = unassigned.filter((user) => isUserSelected(value, user.userId)).length;

  const renderTree = () => {
    if (directory.departments.size === 0 && unassigned.length === 0) {
      return <p className="picker-empty">{t('picker.emptyDirectory')}</p>;
    }
    return (
      <ul className="tree" aria-label={t('picker.byDepartment')}>
        {directory.roots.map((code) => departmentRow(code))}
        {unassigned.length > 0 ? (
          <li className="tree-item" data-testid="picker-dept-row-none">
            <div className="tree-row" style={{ '--depth': 0 } as CSSProperties}>
              <button
                type="button"
                className="tree-toggle"
                onClick={() => toggleExpanded('\u0000none')}
                aria-expanded={unassignedOpen}
                aria-label={unassignedOpen ? t('picker.collapse', { name: t('picker.noDepartment') }) : t('picker.expand', { name: t('picker.noDepartment') })}
              >
                <ChevronRightIcon size={15} className={unassignedOpen ? 'tree-chevron open' : 'tree-chevron'} />
              </button>
              <Checkbox
                testId="picker-dept-none"
                checked={unassignedChosen === unassigned.length}
                indeterminate={unassignedChosen > 0 && unassignedChosen < unassigned.length}
                disabled={disabled}
                onChange={(event) => onUsers(unassigned, event.target.checked)}
                label={
                  <span className="tree-label tree-label-muted">
                    <UsersIcon size={15} className="tree-icon" />
                    <span className="tree-name">{t('picker.noDepartment')}</span>
                    <span className="tree-count">{unassigned.length}</span>
                  </span>
                }
              />
            </div>
            {unassignedOpen ? <ul className="tree-children">{unassigned.map((user) => userRow(user, 1))}</ul> : null}
          </li>
        ) : null}
      </ul>
    );
  };

  const chosenDepartments = value.departments;
  const count = value.users.length;

  return (
    <fieldset className={error ? 'field picker-field field-invalid' : 'field picker-field'} aria-describedby={error ? `${id}-error` : `${id}-hint`} disabled={disabled}>
      <legend className="field-label">
        {label}
        <span className="field-required" aria-hidden="true">
          *
        </span>
      </legend>
      <div className="picker" data-testid="picker">
        <div className="picker-browse">
          <div className="picker-search">
            <SearchIcon size={16} className="picker-search-icon" />
            <input
              type="search"
              className="input"
              value={term}
              onChange={(event) => setTerm(event.target.value)}
              placeholder={t('picker.searchPlaceholder')}
              aria-label={t('picker.searchLabel')}
              maxLength={50}
              data-testid="picker-search"
            />
          </div>
          <div className="picker-list" aria-busy={loaded.phase === 'loading'}>
            {term.trim() ? (
              <SearchResults term={term.trim()} directory={directory} renderUser={(user) => userRow(user, 0)} />
            ) : loaded.phase === 'loading' && !loaded.data ? (
              <div className="picker-skeleton" aria-hidden="true">
                {[70, 55, 62, 48, 66].map((width, index) => (
                  <span key={index} className="skeleton skeleton-line" style={{ width: `${width}%`, marginLeft: index % 2 ? 28 : 0 }} />
                ))}
              </div>
            ) : loaded.phase === 'error' ? (
              <ErrorState message={`${t('picker.loadFailed')} ${apiErrorText(loaded.error, language)}`} onRetry={loaded.reload} testId="picker-load-error" />
            ) : (
              renderTree()
            )}
          </div>
        </div>

        <div className="picker-selected" aria-live="polite">
          <div className="picker-selected-head">
            <span className="picker-selected-title">{t('picker.selected')}</span>
            <span className="badge badge-accent" data-testid="picker-count">
              {t('picker.people', { count })}
            </span>
            {count > 0 || chosenDepartments.length > 0 ? (
              <button type="button" className="link-btn picker-clear" onClick={() => onChange({ users: [], departments: [] })} data-testid="picker-clear">
                {t('picker.clear')}
              </button>
            ) : null}
          </div>
          {chosenDepartments.length > 0 ? (
            <ul className="chip-list" aria-label={t('picker.departments')}>
              {chosenDepartments.map((department) => (
                <li key={department.code} className="chip chip-department" data-testid={`picker-dept-chip-${department.code}`}>
                  <BuildingIcon size={14} className="chip-icon" />
                  <span className="chip-name">{department.name}</span>
                  <button
                    type="button"
                    className="chip-remove"
                    onClick={() => onDepartment(department.code, false)}
                    aria-label={t('picker.removeDepartment', { name: department.name })}
                    title={t('picker.removeDepartment', { name: department.name })}
                  >
                    <CloseIcon size={13} />
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          {count > 0 ? (
            <ul className="chip-list" aria-label={t('picker.selected')}>
              {value.users.map((user) => {
                const bad = invalid.has(user.userId.toLowerCase());
                return (
                  <li key={user.userId} className={bad ? 'chip chip-person chip-invalid' : 'chip chip-person'} data-testid={`picker-chip-${user.userId}`} title={user.userId}>
                    <span className="avatar avatar-sm" aria-hidden="true">
                      {initials(user.name)}
                    </span>
                    <span className="chip-text">
                      <span className="chip-name">{user.name}</span>
                      <span className="chip-sub">{user.departmentName ?? t('picker.noDepartment')}</span>
                    </span>
                    <button
                      type="button"
                      className="chip-remove"
                      onClick={() => onUser(user, false)}
                      aria-label={t('picker.remove', { name: user.name })}
                      title={t('picker.remove', { name: user.name })}
                      data-testid={`picker-chip-remove-${user.userId}`}
                    >
                      <CloseIcon size={13} />
                    </button>
                  </li>
                );
              })}
            </ul>
          ) : (
            <p className="picker-nothing">{t('picker.nothingSelected')}</p>
          )}
        </div>
      </div>
      {error ? (
        <p className="field-error" id={`${id}-error`} data-testid="picker-error" role="alert">
          {error}
        </p>
      ) : (
        <p className="field-hint" id={`${id}-hint`}>
          {t('picker.hint')}
        </p>
      )}
    </fieldset>
  );
}

/** The search box's answer, asked of the server a moment after typing stops, grouped by department. */
function SearchResults({ term, directory, renderUser }: { term: string; directory: Directory; renderUser(user: PickedUser): ReactNode }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [debounced, setDebounced] = useState(term);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(term), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [term]);
  const found = useLoad<DepartmentSearchGroup[]>((signal) => searchUsers(debounced, signal), debounced);
  const pending = found.phase === 'loading' || debounced !== term;

  if (found.phase === 'error') return <ErrorState message={apiErrorText(found.error, language)} onRetry={found.reload} testId="picker-search-error" />;
  if (!found.data || (pending && found.data.length === 0)) {
    return (
      <p className="picker-empty" role="status">
        {t('picker.searching')}
      </p>
    );
  }
  const users = usersOfGroups(found.data);
  if (users.length === 0) {
    return (
      <p className="picker-empty" role="status" data-testid="picker-no-results">
        {t('picker.noResults', { term: debounced })}
      </p>
    );
  }
  return (
    <div className={pending ? 'picker-results is-stale' : 'picker-results'} data-testid="picker-results">
      {found.data.map((group) => (
        <section key={group.code ?? '\u0000none'} className="picker-group">
          <h3 className="picker-group-title">
            <BuildingIcon size={14} />
            {group.name ?? (group.code ? directory.departments.get(group.code)?.name : null) ?? t('picker.noDepartment')}
          </h3>
          <ul className="tree">{usersOfGroups([group]).map((user) => renderUser(user))}</ul>
        </section>
      ))}
    </div>
  );
}
