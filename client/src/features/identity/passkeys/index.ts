/** Passkeys: what other features use (the login card's buttons, the profile's panel). */
export { PASSKEY_TEXTS } from './api/passkeys-api';
export { PasskeyButton } from './components/PasskeyButton';
export { PasskeysPanel } from './components/PasskeysPanel';
