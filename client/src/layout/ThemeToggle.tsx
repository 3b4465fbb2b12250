import { useTranslation } from 'react-i18next';
import { saveDisplayChoice } from '../features/account/display';
import { otherTheme, setTheme, useTheme } from '../theme/theme';
import { SparkleIcon, SquaresIcon } from '../ui/icons';

/**
 * Switches between the standard and beauty themes. `compact` is an icon button (standard header);
 * `pill` shows the theme's name too (beauty header, sign-in page). Signed in, the choice is kept on the
 * server too (My account), so that it follows the person to their other devices.
 */
export function ThemeToggle({ variant = 'compact' }: { variant?: 'compact' | 'pill' }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const next = otherTheme(theme);
  const label = t('theme.switchTo', { theme: t(`theme.${next}`) });
  const icon = next === 'b' ? <SparkleIcon size={18} /> : <SquaresIcon size={18} />;
  return (
    <button
      type="button"
      className={variant === 'compact' ? 'icon-btn theme-toggle' : 'pill-btn theme-toggle'}
      onClick={() => {
        setTheme(next);
        void saveDisplayChoice({ theme: next });
      }}
      aria-label={label}
      title={label}
      data-testid="theme-toggle"
      data-theme-current={theme}
    >
      {icon}
      {variant === 'pill' ? <span>{t(`theme.${next}`)}</span> : null}
    </button>
  );
}
