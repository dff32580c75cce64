import { ACCOUNT_MESSAGES } from '@shared/messages';
import { VALIDATION_MESSAGES } from '@shared/validation';

/** The MFA texts of spec 000 §2, §4 and §8, exactly. */
export const MFA_TEXTS = {
  ENFORCED_BANNER: ACCOUNT_MESSAGES.MFA_ENFORCED,
  DIALOG_TITLE: 'Enabling MFA',
  CONFIRM_DISABLE: 'Are you sure you want to disable MFA?',
  DISABLED_ALERT: 'MFA has been disabled. Please log in again.',
  ENABLED_ALERT: 'MFA has been successfully enabled. Please log in again using your new authenticator.',
  LOGOUT_REASON: 'Logged out as MFA enabled or disabled',
  CODE_INVALID: VALIDATION_MESSAGES.MFA_CODE_FORMAT,
  LOADING: 'Loading...',
} as const;

/** The input mask 999999 and the complete code: the shared rules (src/shared/validation.ts). */
export { maskMfaCode as maskCode, isMfaCode as isCompleteCode } from '@shared/validation';
