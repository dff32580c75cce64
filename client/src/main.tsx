import { createRoot, type Root } from 'react-dom/client';
import { installGlobalErrorHandlers } from './lib/global-errors';
import { isLoginAddress } from '@shared/identity/login-address';
import { mountLogin } from './app/standalone-login';

installGlobalErrorHandlers();

const container = document.getElementById('root')!;
// The application (shell, pages, Chakra, the router) loads on its own: a visit to /logIn downloads the card only.
const mountApp = (root: Root) => void import('./app/mount').then((m) => m.mountApp(root));

// A visit that opens on /logIn: the card on its own, the application loaded once someone has signed in.
if (isLoginAddress(window.location.pathname)) mountLogin(container, mountApp);
else mountApp(createRoot(container));
