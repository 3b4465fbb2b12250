import { Trans } from 'react-i18next';
import { currentLanguage } from '../i18n';
import { formatNumber } from '../lib/format';

/** "Total 12" in the language's own word order, the number in bold. */
export function TotalText({ i18nKey, n }: { i18nKey: 'list.total' | 'admin.departments.total' | 'search.totalMore'; n: number }) {
  return <Trans i18nKey={i18nKey} values={{ n: formatNumber(n, currentLanguage()) }} components={{ b: <strong /> }} />;
}
