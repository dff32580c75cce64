/** The mfa feature's public entry: what other features (auth's login card, the profile page) use. */
export { MfaPanel } from './components/MfaPanel';
export { MFA_TEXTS } from './mfa-texts';
export { RecoveryCodeField, RecoveryCodeToggle, RememberDeviceCheckbox } from './components/MfaStepOptions';
export { signedInWithRecoveryCode, validateRecoveryCode } from './recovery-texts';
