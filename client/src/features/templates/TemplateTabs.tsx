import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { createTabStore } from '../notes/tabStore';
import { TemplateIcon } from '../../ui/icons';

/** The templates open in this browser tab, as notes have theirs (kept per user in sessionStorage). */
const templateTabs = createTabStore('eln.templateTabs.');

/**
 * The open templates above the editor: opening one adds or selects its tab; closing the shown one opens
 * the last one left, or the list. Links, not a tablist: each tab is a page of its own.
 */
export function TemplateTabs({ templateNo, title }: { templateNo: number; title: string | null }) {
  const { t } = useTranslation('template');
  const navigate = useNavigate();
  const tabs = templateTabs.useTabs();

  useEffect(() => {
    templateTabs.dispatchTabs({ type: 'open', no: templateNo, ...(title ? { title } : {}) });
  }, [templateNo, title]);

  const close = (no: number) => {
    const left = templateTabs.dispatchTabs({ type: 'close', no });
    if (no !== templateNo) return;
    const next = left.find((tab) => tab.active) ?? left.at(-1);
    void navigate(next ? `/template/note/${next.no}` : '/template');
  };

  if (tabs.length === 0) return null;
  return (
    <nav className="note-tabs" aria-label={t('tabs.label')} data-testid="template-tabs">
      <ul className="note-tab-list">
        {tabs.map((tab) => {
          const current = tab.no === templateNo;
          const label = tab.title || t('tabs.untitled', { no: tab.no });
          return (
            <li key={tab.no} className={`note-tab${current ? ' is-active' : ''}`}>
              <Link
                to={`/template/note/${tab.no}`}
                className="note-tab-main"
                aria-current={current ? 'page' : undefined}
                title={label}
                data-testid={`template-tab-${tab.no}`}
              >
                <TemplateIcon size={15} className="note-tab-icon" />
                <span className="note-tab-title">{label}</span>
              </Link>
              <button
                type="button"
                className="note-tab-close"
                onClick={() => close(tab.no)}
                aria-label={t('tabs.close', { title: label })}
                title={t('tabs.close', { title: label })}
                data-testid={`template-tab-close-${tab.no}`}
              >
                ×
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
