import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { api, LIMITS, type SearchHit } from '@eln/shared';
import { useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { formatNumber } from '../../lib/format';
import { useSettledValue } from '../../lib/useSettledValue';
import { SearchIcon } from '../../ui/icons';
import { groupByKind, hitHref, searchPageHref } from './searchParams';
import { SearchHitView } from './SearchHitView';
import './search.css';

/** How long typing must pause before the words are searched. */
const TYPING_PAUSE_MS = 200;
/** Hits the header shows; the results page has the rest. */
const HEADER_HITS = 12;

/** Whether a key press is someone typing (a field, the editor), where `/` is a character, not a shortcut. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

type Option = { kind: 'hit'; hit: SearchHit; href: string } | { kind: 'all'; href: string };

/**
 * The header's search field: `/` (outside a field) or Ctrl+K / Cmd+K (anywhere) focuses it; hits appear,
 * grouped by kind, as the user types. An ARIA 1.2 combobox: the focus stays in the field, the arrows move
 * the active option (aria-activedescendant), Enter opens it (or the results page), Escape closes the list
 * and, once closed, clears the field.
 */
export function HeaderSearch() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const id = useId();
  const listId = `${id}-list`;
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  /** Closing forgets the active option: the list opens again at its top. */
  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  const settled = useSettledValue(text.trim(), TYPING_PAUSE_MS);
  const words = text.trim() ? settled : '';

  const results = useApiQuery(
    api.search.search,
    { q: words, page: 1, pageSize: HEADER_HITS },
    { enabled: open && words !== '', keepPrevious: false },
  );

  // Shortcuts from anywhere in the signed-in frame.
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      const commandK = (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k';
      const slash = event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !isTyping(event.target);
      // A dialog keeps the keyboard: the field behind it is out of reach until it closes.
      if ((!commandK && !slash) || document.querySelector('[aria-modal="true"]')) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
      setOpen(true);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // Another page: the list closes (the words stay, to search again).
  useEffect(() => {
    setOpen(false);
    setActive(-1);
  }, [pathname, search]);

  const answer = results.phase !== 'error' && words ? results.data?.list : undefined;
  const hits = useMemo(() => answer ?? [], [answer]);
  const groups = useMemo(() => groupByKind(hits), [hits]);
  const options: Option[] = useMemo(() => {
    const found: Option[] = groups.flatMap((group) => group.hits.map((hit) => ({ kind: 'hit' as const, hit, href: hitHref(hit) })));
    return words ? [...found, { kind: 'all', href: searchPageHref({ q: words }) }] : found;
  }, [groups, words]);

  useEffect(() => setActive(-1), [words, results.data]);

  const go = (href: string) => {
    close();
    input.current?.blur();
    void navigate(href);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = options.length;
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        setOpen(true);
        if (count) setActive((index) => (index + 1) % count);
        break;
      case 'ArrowUp':
        event.preventDefault();
        setOpen(true);
        if (count) setActive((index) => (index <= 0 ? count - 1 : index - 1));
        break;
      case 'Enter': {
        event.preventDefault();
        const chosen = open ? options[active] : undefined;
        if (chosen) go(chosen.href);
        else if (text.trim()) go(searchPageHref({ q: text.trim() }));
        break;
      }
      case 'Escape':
        event.preventDefault();
        if (open) close();
        else if (text) setText('');
        else input.current?.blur();
        break;
      case 'Tab':
        close();
        break;
    }
  };

  const optionId = (index: number) => `${id}-option-${index}`;
  const total = results.data?.totalCount ?? 0;
  const count = results.data?.more
    ? t('search.countMore', { n: formatNumber(total, currentLanguage()) })
    : t('search.count', { count: total });
  const waiting = text.trim() !== settled || (results.phase === 'loading' && !results.data);

  let status: { text: string; testId: string; hint?: string } | null = null;
  if (!text.trim()) status = { text: t('search.typeMore'), testId: 'header-search-idle', hint: t('search.hint') };
  else if (results.phase === 'error') status = { text: t('search.failed'), testId: 'header-search-failed' };
  else if (waiting && hits.length === 0) status = { text: t('search.searching'), testId: 'header-search-busy' };
  else if (results.phase === 'ready' && hits.length === 0)
    status = { text: t('search.noMatches', { q: words }), testId: 'header-search-empty', hint: t('search.noMatchesHint') };

  let index = -1;
  const renderOption = (option: Option, children: ReactNode, className: string, testId: string) => {
    index += 1;
    const mine = index;
    return (
      // eslint-disable-next-line jsx-a11y/click-events-have-key-events -- an option is chosen from the keyboard in the field (the combobox pattern), not on the option
      <li
        key={option.kind === 'hit' ? `${option.hit.kind}-${option.hit.no}-${option.hit.uid ?? ''}-${mine}` : 'all'}
        id={optionId(mine)}
        role="option"
        aria-selected={mine === active}
        className={`${className}${mine === active ? ' is-active' : ''}`}
        data-testid={testId}
        data-href={option.href}
        // The field keeps the focus: a press on an option must not blur it before the click opens it.
        onMouseDown={(event) => event.preventDefault()}
        onMouseMove={() => setActive(mine)}
        onClick={() => go(option.href)}
      >
        {children}
      </li>
    );
  };

  const expanded = open;
  return (
    <div className="header-search" data-testid="header-search" data-open={expanded || undefined}>
      <div className="header-search-field">
        <SearchIcon size={16} className="header-search-icon" aria-hidden="true" />
        <input
          ref={input}
          type="text"
          role="combobox"
          className="header-search-input"
          aria-label={t('search.label')}
          aria-expanded={expanded}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
          aria-describedby={`${id}-shortcut`}
          placeholder={t('search.placeholder')}
          value={text}
          maxLength={LIMITS.searchQuery}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onBlur={close}
          onKeyDown={onKeyDown}
          data-testid="header-search-input"
        />
        <kbd className="header-search-kbd" aria-hidden="true">
          /
        </kbd>
        <span className="visually-hidden" id={`${id}-shortcut`}>
          {t('search.shortcut')}
        </span>
      </div>
      <div className="header-search-popup" hidden={!expanded} data-testid="header-search-popup">
        {status ? (
          <div className="header-search-status" role="status" data-testid={status.testId}>
            <p>{status.text}</p>
            {status.hint ? <p className="header-search-hint">{status.hint}</p> : null}
          </div>
        ) : (
          <p className="visually-hidden" role="status">
            {count}
          </p>
        )}
        <ul id={listId} role="listbox" aria-label={t('search.label')} className="header-search-list">
          {groups.map((group) => (
            <li key={group.kind} role="presentation" className="header-search-group">
              <ul role="group" aria-labelledby={`${id}-group-${group.kind}`}>
                <li role="presentation" id={`${id}-group-${group.kind}`} className="header-search-group-label">
                  {t(`search.kinds.${group.kind}`)}
                </li>
                {group.hits.map((hit) =>
                  renderOption(
                    { kind: 'hit', hit, href: hitHref(hit) },
                    <SearchHitView hit={hit} />,
                    'header-search-option',
                    'header-search-hit',
                  ),
                )}
              </ul>
            </li>
          ))}
          {words
            ? renderOption(
                { kind: 'all', href: searchPageHref({ q: words }) },
                <span className="header-search-all-text">
                  <SearchIcon size={14} aria-hidden="true" /> {t('search.showAll', { q: words })}
                  {total > 0 ? <span className="header-search-count">{count}</span> : null}
                </span>,
                'header-search-option header-search-all',
                'header-search-all',
              )
            : null}
        </ul>
      </div>
    </div>
  );
}
