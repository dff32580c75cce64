/** The mfa feature's second public entry: texts without any component, for the login card's first step. */
export { signedInWithRecoveryCode } from './recovery-texts';
