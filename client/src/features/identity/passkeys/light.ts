/**
 * Passkeys' second public entry: the browser ceremony and its texts without any component, for the login
 * card, which loads no component library before the visitor touches it.
 */
export { browserCeremonyError, PASSKEY_TEXTS, passkeysApi } from './api/passkeys-api';
