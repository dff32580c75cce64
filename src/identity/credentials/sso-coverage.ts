/** An account as the single sign-on requirement looks at it. */
export interface SsoAccount {
  id: number;
  email: string;
  organisationId: number;
  roleId: number;
}

/**
 * Whether the organisation's single sign-on requirement covers an account (its e-mail on a domain the organisation
 * verified, an enabled connection to send it to; the session check has already left out E-Support and the site
 * admin who saved the requirement): the corporate sign-on feature answers, which knows domains and connections.
 */
export abstract class SsoCoverage {
  abstract covers(account: SsoAccount): Promise<boolean>;
}
