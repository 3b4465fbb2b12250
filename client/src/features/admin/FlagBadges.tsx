import { useTranslation } from 'react-i18next';
import { AUTH_FLAG_NAMES, type AuthFlags } from '@eln/shared';

/** The letters of the four permission flags (the same in every language, like the icons of a toolbar). */
export const FLAG_LETTERS: Record<keyof AuthFlags, string> = { project: 'P', schema: 'S', dropbox: 'D', template: 'T' };

/** The permission flags as four small letters: filled when granted, faint when not. */
export function FlagBadges({ auth, testId }: { auth: AuthFlags; testId?: string }) {
  const { t } = useTranslation();
  const granted = AUTH_FLAG_NAMES.filter((flag) => auth[flag] === 'Y');
  const summary = granted.length ? granted.map((flag) => t(`admin.flags.${flag}`)).join(', ') : t('admin.flags.none');
  return (
    <span
      className="flag-badges"
      role="img"
      aria-label={summary}
      title={summary}
      data-testid={testId}
      data-flags={granted.map((flag) => FLAG_LETTERS[flag]).join('')}
    >
      {AUTH_FLAG_NAMES.map((flag) => (
        <span key={flag} className={auth[flag] === 'Y' ? 'flag-badge on' : 'flag-badge'} aria-hidden="true">
          {FLAG_LETTERS[flag]}
        </span>
      ))}
    </span>
  );
}
