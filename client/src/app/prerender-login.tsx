import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StandaloneLogin } from './standalone-login';

/**
 * The login card's first step as HTML, rendered at build time into the page served for /logIn: the same
 * tree an anonymous visit hydrates (standalone-login.tsx), so the two agree to the element.
 */
export function renderLogin(): string {
  return renderToString(
    <StrictMode>
      <StandaloneLogin enter={() => undefined} search="" resuming={false} />
    </StrictMode>,
  );
}
