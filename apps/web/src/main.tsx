import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { initialLanguage, loadLanguage, setupI18n } from './i18n';

const root = document.getElementById('root');
// The texts first: the app renders in the user's language from its first frame.
void loadLanguage(initialLanguage()).then(() => {
  setupI18n();
  if (root) {
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  }
});
