import { useEffect, useId, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../api';
import { useLoadedQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { initials } from '../../lib/format';
import { Checkbox } from '../../ui/Field';
import { BuildingIcon, ChevronRightIcon, CloseIcon, SearchIcon, UsersIcon } from '../../ui/icons';
import { LoadMore } from '../../ui/LoadMore';
import { ErrorState } from '../../ui/States';
import { loadDirectory, loadEveryone, type PeopleScope } from './directory';
import {
  departmentState,
  EMPTY_DIRECTORY,
  homeOf,
  isUserSelected,
  setDepartment,
  setUser,
  setUsers,
  subtreeCodes,
  subtreeUserCount,
  unassignedState,
  type Directory,
  type PickedUser,
  type Selection,
} from './selection';
import { usePeoplePages, type PagedPeople } from './usePeoplePages';

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
/** The key of the people in no department, beside department codes. */
const NONE = '\u0000none';
const scopeOf = (key: string): PeopleScope => (key === NONE ? { noDepartment: true } : { departmentCodes: [key] });

/**
 * Chooses participants by department and by person. The tree (`/department/join`) shows every department
 * with its head count; its people are loaded a page at a time when it is opened, the next page as the list
 * scrolls near its end, so a company of any size opens at once. A department's checkbox takes the whole
 * department (its people are fetched then). The search box asks `/department/search`, paged the same way.
 * Chosen people show as chips with their name and department.
 *
 * Test ids: `picker`, `picker-search`, `picker-dept-<code>`, `picker-dept-toggle-<code>`, `picker-user-<userId>`,
 * `picker-chip-<userId>`, `picker-chip-remove-<userId>`, `picker-dept-chip-<code>`, `picker-clear`, `picker-error`.
 */
export function ParticipantPicker({ value, onChange, error, invalidUserIds = [], disabled = false, label }: ParticipantPickerProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const id = useId();
  const loaded = useLoadedQuery(['people-directory'], loadDirectory);
  const directory = loaded.data?.directory ?? EMPTY_DIRECTORY;
  const [term, setTerm] = useState('');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [expandedOnce, setExpandedOnce] = useState(false);
  const { pages, more } = usePeoplePages();
  const [choosing, setChoosing] = useState<ReadonlySet<string>>(new Set());
  const [chooseError, setChooseError] = useState<unknown>(null);
  // The selection as it is when a whole department's people arrive, not as it was when its box was checked.
  const latest = useRef(value);
  latest.current = value;

  // Open the top level once the tree arrives, so that the first departments and people are in view.
  useEffect(() => {
    if (expandedOnce || loaded.phase !== 'ready') return;
    setExpanded(new Set(directory.roots));
    setExpandedOnce(true);
  }, [loaded.phase, directory, expandedOnce]);

  const invalid = useMemo(() => new Set(invalidUserIds.map((userId) => userId.toLowerCase())), [invalidUserIds]);
  const toggleExpanded = (key: string) => {
    const opening = !expanded.has(key);
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
    if (opening && !pages.has(key)) more(key, scopeOf(key));
  };

  /** Fetches everyone a box stands for, then applies the change to the selection as it is by then. */
  const chooseAll = (key: string, scope: PeopleScope, apply: (selection: Selection, people: PickedUser[]) => Selection) => {
    setChooseError(null);
    setChoosing((current) => new Set(current).add(key));
    loadEveryone(scope)
      .then((people) => onChange(apply(latest.current, people)))
      .catch((error: unknown) => setChooseError(error))
      .finally(() =>
        setChoosing((current) => {
          const next = new Set(current);
          next.delete(key);
          return next;
        }),
      );
  };

  const onUser = (user: PickedUser, on: boolean) => onChange(setUser(value, directory, user, on));
  const onDepartment = (code: string, on: boolean) => {
    if (!on) return onChange(setDepartment(value, directory, code, false));
    chooseAll(code, { departmentCodes: subtreeCodes(directory, code) }, (selection, people) =>
      setDepartment(selection, directory, code, true, people),
    );
  };
  const onUnassigned = (on: boolean) => {
    if (!on)
      return onChange(
        setUsers(
          value,
          directory,
          value.users.filter((user) => homeOf(directory, user) === null),
          false,
        ),
      );
    chooseAll(NONE, { noDepartment: true }, (selection, people) => setUsers(selection, directory, people, true));
  };

  /**
   * A department's (or the no-department group's) people so far, and the way to the next page. An open
   * department whose people were never asked for shows only that way: its first page loads when it comes
   * near the view, so a company with many departments asks only for those someone looks at.
   */
  const pagedPeople = (key: string, depth: number, page: PagedPeople | undefined, count: number) => (
    <>
      {(page?.users ?? []).map((user) => userRow(user, depth))}
      {page?.phase === 'error' ? (
        <li className="tree-user" style={{ '--depth': depth } as CSSProperties}>
          <ErrorState
            message={apiErrorText(page.error, language)}
            onRetry={() => more(key, scopeOf(key))}
            testId={`picker-people-error-${key}`}
          />
        </li>
      ) : (page ? page.next !== null || page.phase === 'loading' : count > 0) ? (
        <li className="tree-user tree-more" style={{ '--depth': depth } as CSSProperties}>
          <LoadMore
            onMore={() => more(key, scopeOf(key))}
            loading={page?.phase === 'loading'}
            label={page?.phase === 'loading' ? t('picker.loadingPeople') : t('picker.morePeople')}
            testId={`picker-more-${key === NONE ? 'none' : key}`}
          />
        </li>
      ) : null}
    </>
  );

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
    const total = subtreeUserCount(directory, code);
    const state = departmentState(value, directory, code);
    const hasContent = node.childCodes.length > 0 || node.userCount > 0;
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
            checked={state === 'all' || choosing.has(code)}
            indeterminate={state === 'some' && !choosing.has(code)}
            disabled={disabled || choosing.has(code)}
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
            {pagedPeople(code, node.depth + 1, pages.get(code), node.userCount)}
          </ul>
        ) : null}
      </li>
    );
  };

  const unassignedCount = directory.unassignedCount;
  const unassignedOpen = expanded.has(NONE);
  const unassigned = unassignedState(value, directory);

  const renderTree = () => {
    if (directory.departments.size === 0 && unassignedCount === 0) {
      return <p className="picker-empty">{t('picker.emptyDirectory')}</p>;
    }
    return (
      <ul className="tree" aria-label={t('picker.byDepartment')}>
        {directory.roots.map((code) => departmentRow(code))}
        {unassignedCount > 0 ? (
          <li className="tree-item" data-testid="picker-dept-row-none">
            <div className="tree-row" style={{ '--depth': 0 } as CSSProperties}>
              <button
                type="button"
                className="tree-toggle"
                onClick={() => toggleExpanded(NONE)}
                aria-expanded={unassignedOpen}
                aria-label={
                  unassignedOpen
                    ? t('picker.collapse', { name: t('picker.noDepartment') })
                    : t('picker.expand', { name: t('picker.noDepartment') })
                }
              >
                <ChevronRightIcon size={15} className={unassignedOpen ? 'tree-chevron open' : 'tree-chevron'} />
              </button>
              <Checkbox
                testId="picker-dept-none"
                checked={unassigned === 'all' || choosing.has(NONE)}
                indeterminate={unassigned === 'some' && !choosing.has(NONE)}
                disabled={disabled || choosing.has(NONE)}
                onChange={(event) => onUnassigned(event.target.checked)}
                label={
                  <span className="tree-label tree-label-muted">
                    <UsersIcon size={15} className="tree-icon" />
                    <span className="tree-name">{t('picker.noDepartment')}</span>
                    <span className="tree-count">{unassignedCount}</span>
                  </span>
                }
              />
            </div>
            {unassignedOpen ? <ul className="tree-children">{pagedPeople(NONE, 1, pages.get(NONE), unassignedCount)}</ul> : null}
          </li>
        ) : null}
      </ul>
    );
  };

  const chosenDepartments = value.departments;
  const count = value.users.length;

  return (
    <fieldset
      className={error ? 'field picker-field field-invalid' : 'field picker-field'}
      aria-describedby={error ? `${id}-error` : `${id}-hint`}
      disabled={disabled}
    >
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
          <div className="picker-list" aria-busy={loaded.phase === 'loading'} data-scroll-root>
            {term.trim() ? (
              <SearchResults term={term.trim()} directory={directory} renderUser={(user) => userRow(user, 0)} />
            ) : loaded.phase === 'loading' && !loaded.data ? (
              <div className="picker-skeleton" aria-hidden="true">
                {[70, 55, 62, 48, 66].map((width, index) => (
                  <span key={index} className="skeleton skeleton-line" style={{ width: `${width}%`, marginLeft: index % 2 ? 28 : 0 }} />
                ))}
              </div>
            ) : loaded.phase === 'error' ? (
              <ErrorState
                message={`${t('picker.loadFailed')} ${apiErrorText(loaded.error, language)}`}
                onRetry={loaded.reload}
                testId="picker-load-error"
              />
            ) : (
              renderTree()
            )}
          </div>
          {chooseError ? (
            <p className="field-error" role="alert" data-testid="picker-choose-error">
              {t('picker.chooseFailed')} {apiErrorText(chooseError, language)}
            </p>
          ) : null}
        </div>

        <div className="picker-selected" aria-live="polite">
          <div className="picker-selected-head">
            <span className="picker-selected-title">{t('picker.selected')}</span>
            <span className="badge badge-accent" data-testid="picker-count">
              {t('picker.people', { count })}
            </span>
            {count > 0 || chosenDepartments.length > 0 ? (
              <button
                type="button"
                className="link-btn picker-clear"
                onClick={() => onChange({ users: [], departments: [] })}
                data-testid="picker-clear"
              >
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
                  <li
                    key={user.userId}
                    className={bad ? 'chip chip-person chip-invalid' : 'chip chip-person'}
                    data-testid={`picker-chip-${user.userId}`}
                    title={user.userId}
                  >
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

/** The search box's answer, asked of the server a moment after typing stops, a page at a time, by department. */
function SearchResults({ term, directory, renderUser }: { term: string; directory: Directory; renderUser(user: PickedUser): ReactNode }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [debounced, setDebounced] = useState(term);
  const { pages, more } = usePeoplePages();
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(term), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [term]);
  useEffect(() => more(debounced, {}, debounced), [debounced, more]);
  // The last answer stays on screen (marked stale) while the next term is asked: replacing it with
  // "Searching…" took away the person a keyboard user had just tabbed to, and their focus with it.
  const [answered, setAnswered] = useState(debounced);
  const asked = pages.get(debounced);
  useEffect(() => {
    if (asked && asked.phase !== 'loading') setAnswered(debounced);
  }, [asked, debounced]);
  const previous = pages.get(answered);
  const found = asked && (asked.users.length > 0 || asked.phase !== 'loading') ? asked : previous?.users.length ? previous : asked;
  const pending = !found || found !== asked || found.phase === 'loading' || debounced !== term;

  if (found?.phase === 'error' && found.users.length === 0) {
    return (
      <ErrorState
        message={apiErrorText(found.error, language)}
        onRetry={() => more(debounced, {}, debounced)}
        testId="picker-search-error"
      />
    );
  }
  if (!found || (pending && found.users.length === 0)) {
    return (
      <p className="picker-empty" role="status">
        {t('picker.searching')}
      </p>
    );
  }
  if (found.users.length === 0) {
    return (
      <p className="picker-empty" role="status" data-testid="picker-no-results">
        {t('picker.noResults', { term: debounced })}
      </p>
    );
  }
  // The server answers in department order, so each department's people arrive together.
  // Keyed by department (and its run, should one come twice), not by place: a narrower answer that drops
  // an earlier department keeps the others' rows, and the focus in them.
  const groups: Array<{ key: string; code: string | null; name: string | null; users: PickedUser[] }> = [];
  const runs = new Map<string, number>();
  for (const user of found.users) {
    const last = groups.at(-1);
    if (last && last.code === user.departmentCode) {
      last.users.push(user);
      continue;
    }
    const code = user.departmentCode ?? NONE;
    const run = runs.get(code) ?? 0;
    runs.set(code, run + 1);
    groups.push({ key: `${code}-${run}`, code: user.departmentCode, name: user.departmentName, users: [user] });
  }
  return (
    <div className={pending ? 'picker-results is-stale' : 'picker-results'} aria-busy={pending || undefined} data-testid="picker-results">
      {groups.map((group) => (
        <section key={group.key} className="picker-group">
          <h3 className="picker-group-title">
            <BuildingIcon size={14} />
            {group.name ?? (group.code ? directory.departments.get(group.code)?.name : null) ?? t('picker.noDepartment')}
          </h3>
          <ul className="tree">{group.users.map((user) => renderUser(user))}</ul>
        </section>
      ))}
      {/* An earlier answer standing in has no more pages to ask for: the next term's are on their way. */}
      {found === asked && (found.next !== null || found.phase === 'loading') ? (
        <LoadMore
          onMore={() => more(debounced, {}, debounced)}
          loading={found.phase === 'loading'}
          label={found.phase === 'loading' ? t('picker.loadingPeople') : t('picker.morePeople')}
          testId="picker-more-results"
        />
      ) : null}
    </div>
  );
}
