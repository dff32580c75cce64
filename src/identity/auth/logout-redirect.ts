/**
 * Where a logout continues when the session came from an organisation's provider (the provider's end of it): the
 * corporate sign-on feature answers.
 */
export abstract class LogoutRedirect {
  /** Where the browser goes after our own logout of this session, or undefined when nothing more is to end. */
  abstract logoutUrl(sessionId: string): Promise<string | undefined>;
}
