/** The profile texts of spec 000 §2, §5 and §8, exactly. */
export const PROFILE_TEXTS = {
  TITLE: 'Profile – Manage your profile and personal information',
  SAVED: 'Your details have been saved',
  FAILED: 'Something went wrong',
  LOAD_FAILED: 'Failed to get user data.',
  PASSWORDS_DIFFER: "Your passwords don't match",
  PASSWORD_TOO_LONG: 'Password must be less than or equal to 50 characters.',
  PASSWORD_CHANGED: 'Your password has been changed. Please log in again using your new password.',
  PASSWORD_LOGOUT_REASON: 'Logged out as password changed',
} as const;

export interface PasswordForm {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** The change-password rule: the new password twice, within the limit. */
export function validatePasswordForm(f: PasswordForm, max = 50): string | null {
  if (f.newPassword !== f.confirmPassword) return PROFILE_TEXTS.PASSWORDS_DIFFER;
  if (f.newPassword.length > max) return PROFILE_TEXTS.PASSWORD_TOO_LONG;
  return null;
}

export function trimProfile<T extends object>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, typeof v === 'string' ? v.trim() : v])) as T;
}
