import { useTranslation } from 'react-i18next';
import { LANGUAGE_SWITCH_LABELS, LANGUAGES } from '@eln/shared';
import { currentLanguage, switchLanguage } from '../i18n';

/** KR / EN / JP: stores the choice and reloads the page. */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const active = currentLanguage();
  return (
    <div className="segmented lang-switch" role="group" aria-label={t('language.label')}>
      {LANGUAGES.map((language) => (
        <button
          key={language}
          type="button"
          className="segmented-item"
          aria-pressed={language === active}
          lang={language}
          title={t(`language.${language}`)}
          data-testid={`lang-${language}`}
          onClick={() => {
            if (language !== active) switchLanguage(language);
          }}
        >
          {LANGUAGE_SWITCH_LABELS[language]}
        </button>
      ))}
    </div>
  );
}
