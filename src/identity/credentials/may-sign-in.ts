/** The two account states that close every door: disabled by an administrator, blocked by the system. */
export interface SignInState {
  isDisabled: boolean;
  isBlocked: boolean;
}

/** Whether this account may sign in and keep its sessions: the one rule, for passwords, SSO, refresh and every request. */
export function maySignIn(account: SignInState): boolean {
  return !account.isDisabled && !account.isBlocked;
}
