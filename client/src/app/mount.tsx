import { StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { AppProvider } from './provider';
import { AppRouter } from './router';

/** The whole application (the shell, its pages and libraries) in the page's root. */
export function mountApp(root: Root) {
  root.render(
    <StrictMode>
      <AppProvider>
        <AppRouter />
      </AppProvider>
    </StrictMode>,
  );
}
