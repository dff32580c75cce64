/** Whether an account must still set up MFA: it is enforced, and neither TOTP nor a passkey satisfies it. */
export function mfaPending(user: { isMFAEnforced: boolean; isMFAEnabled: boolean; hasPasskey?: boolean }): boolean {
  return user.isMFAEnforced && !user.isMFAEnabled && !user.hasPasskey;
}
