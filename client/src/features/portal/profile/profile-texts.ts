import { LIMITS } from '@shared/limits';
import { VALIDATION_MESSAGES } from '@shared/validation';

/** The profile texts of spec 000 §2, §5 and §8, exactly. */
export const PROFILE_TEXTS = {
  TITLE: 'Profile – Manage your profile and personal information',
  SAVED: 'Your details have been saved',
  FAILED: 'Something went wrong',
  LOAD_FAILED: 'Failed to get user data.',
  PASSWORDS_DIFFER: VALIDATION_MESSAGES.PASSWORDS_DIFFER,
  PASSWORD_TOO_LONG: VALIDATION_MESSAGES.NEW_PASSWORD_TOO_LONG,
  PASSWORD_CHANGED: 'Your password has been changed. Please log in again using your new password.',
  PASSWORD_LOGOUT_REASON: 'Logged out as password changed',
} as const;

export interface PasswordForm {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** The change-password rule: the new password twice, within the limit. */
export function validatePasswordForm(f: PasswordForm, max: number = LIMITS.PASSWORD_MAX): string | null {
  if (f.newPassword !== f.confirmPassword) return PROFILE_TEXTS.PASSWORDS_DIFFER;
  if (f.newPassword.length > max) return PROFILE_TEXTS.PASSWORD_TOO_LONG;
  return null;
}
