import { RECOVERY_CODE_INPUT, RECOVERY_MESSAGES } from '@shared/identity/mfa-recovery';
import { formatDateTime } from '@/lib/formats';

/** The texts of recovery codes and trusted devices, in the spec's wording style. */
export const RECOVERY_TEXTS = {
  USE_RECOVERY_CODE: 'Use a recovery code',
  USE_AUTHENTICATOR: 'Use your authenticator app instead',
  RECOVERY_HINT: 'Enter one of the recovery codes you saved when you enabled MFA. Each code works once.',
  RECOVERY_REQUIRED: 'A recovery code is required.',
  RECOVERY_FORMAT: RECOVERY_MESSAGES.RECOVERY_CODE_FORMAT,
  SHOW_TITLE: 'Your recovery codes',
  SHOW_INTRO:
    'If you lose your phone, each of these codes lets you sign in once in place of the MFA code. Save them somewhere safe now: they will not be shown again.',
  SAVED: 'I have saved my recovery codes',
  DOWNLOAD: 'Download as .txt',
  COPY: 'Copy',
  FILE_NAME: 'tax-portal-recovery-codes.txt',
  REGENERATE: 'Regenerate recovery codes',
  REGENERATE_TITLE: 'Regenerate recovery codes',
  REGENERATE_INTRO:
    'Your current recovery codes will stop working, and every trusted device will be asked for MFA again.',
  TRUSTED_DEVICES: 'Trusted devices',
  NO_DEVICES: 'No trusted devices. Tick “Don’t ask again on this device” at the MFA step to add one.',
  REVOKE: 'Revoke',
  REVOKE_ALL: 'Revoke all',
  CONFIRM_REVOKE_ALL: 'Are you sure you want to revoke all trusted devices?',
  REVOKED: 'Trusted device revoked.',
  ALL_REVOKED: 'All trusted devices revoked.',
} as const;

export const codesLeftText = (n: number) => `${n} recovery code${n === 1 ? '' : 's'} left`;

/** The toast after a sign-in with a recovery code. */
export const signedInWithRecoveryCode = (left: number) => ({
  type: left <= 3 ? ('warning' as const) : ('info' as const),
  title: `You signed in with a recovery code. ${codesLeftText(left)}.`,
  description: left <= 3 ? 'Regenerate your recovery codes on your profile page.' : undefined,
});

/** Null when the typed recovery code has the right shape. */
export function validateRecoveryCode(code: string): string | null {
  if (!code.trim()) return RECOVERY_TEXTS.RECOVERY_REQUIRED;
  return RECOVERY_CODE_INPUT.test(code) ? null : RECOVERY_TEXTS.RECOVERY_FORMAT;
}

/** The .txt file of "Download as .txt". */
export function recoveryCodesFile(codes: string[], email?: string): string {
  return [
    'Tax Portal recovery codes' + (email ? ` for ${email}` : ''),
    `Created ${formatDateTime(new Date())}. Each code works once.`,
    '',
    ...codes,
    '',
  ].join('\n');
}
