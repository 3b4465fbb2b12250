import '@fontsource/noto-sans-kr/400.css';
import '@fontsource/noto-sans-kr/500.css';
import '@fontsource/noto-sans-kr/700.css';
import './styles/index.css';
import { loadStartLanguage } from './i18n';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { applyTheme } from './theme/theme';

applyTheme();

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

const root = createRoot(container);
// Rendered once the start language's strings are in (at once for English); English if they fail to load.
void loadStartLanguage().finally(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
