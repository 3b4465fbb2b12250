import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_SWITCH_LABELS, LANGUAGES } from '@eln/shared';
import { saveDisplayChoice } from '../features/account/display';
import { currentLanguage, switchLanguage } from '../i18n';

/** KR / EN / JP: stores the choice (on the server too when signed in: My account) and reloads the page. */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const active = currentLanguage();
  // One switch at a time: a second click while the first is saved would race it to the reload.
  const switching = useRef(false);
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
            if (language === active || switching.current) return;
            switching.current = true;
            void saveDisplayChoice({ language }).then(() => switchLanguage(language));
          }}
        >
          {LANGUAGE_SWITCH_LABELS[language]}
        </button>
      ))}
    </div>
  );
}
