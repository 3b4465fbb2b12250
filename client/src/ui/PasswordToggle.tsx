import { useTranslation } from 'react-i18next';
import { EyeIcon, EyeOffIcon } from './icons';

/** The eye button at the end of a password input: shows what is typed, or hides it again. */
export function PasswordToggle({ shown, onToggle }: { shown: boolean; onToggle(): void }) {
  const { t } = useTranslation();
  const label = shown ? t('signin.hidePassword') : t('signin.showPassword');
  return (
    <button type="button" className="icon-btn icon-btn-sm" onClick={onToggle} aria-label={label} aria-pressed={shown} title={label}>
      {shown ? <EyeOffIcon size={17} /> : <EyeIcon size={17} />}
    </button>
  );
}
