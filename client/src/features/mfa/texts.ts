/** The MFA texts of spec 000 §2, §4 and §8, exactly. */
export const MFA_TEXTS = {
  ENFORCED_BANNER: 'Site Admin has enforced MFA on your account. You must enable MFA to proceed further.',
  DIALOG_TITLE: 'Enabling MFA',
  CONFIRM_DISABLE: 'Are you sure you want to disable MFA?',
  DISABLED_ALERT: 'MFA has been disabled. Please log in again.',
  ENABLED_ALERT: 'MFA has been successfully enabled. Please log in again using your new authenticator.',
  LOGOUT_REASON: 'Logged out as MFA enabled or disabled',
  CODE_INVALID: 'MFA must contain exactly 6 digits',
  LOADING: 'Loading...',
} as const;

/** The input mask 999999: digits only, six at most. */
export function maskCode(value: string): string {
  return value.replace(/\D/g, '').slice(0, 6);
}

export function isCompleteCode(code: string): boolean {
  return /^\d{6}$/.test(code);
}
