import type { Organisation } from '../../../platform/database/entities/organisation.entity';
import type { User } from '../../../platform/database/entities/user.entity';

/** The organisation's columns a sign-in's rules read. */
export const SIGN_IN_POLICY_COLUMNS = ['id', 'allowedIpRanges', 'ssoRequired', 'ssoRequiredBy'] as const;

/** The organisation's rules a sign-in checks before it opens a session (read once a sign-in). */
export type SignInPolicy = Pick<Organisation, (typeof SIGN_IN_POLICY_COLUMNS)[number]>;

/**
 * Whether the organisation requires its single sign-on of a member who proved who they are by password or by a
 * passkey alone: the corporate sign-on feature answers (it knows the organisation's domains and providers).
 */
export abstract class SsoRequirement {
  /**
   * Where the account must sign in instead (the provider's start), or undefined when its password or passkey is
   * fine. `policy`: the organisation's row as the sign-in read it already (null: no policy binds the account).
   */
  abstract requiredFor(user: User, policy?: SignInPolicy | null): Promise<string | undefined>;
}
