import { AppException } from '../common/app.exception';
import { AuthUser, canAccessOrganisation } from '../common/auth-user';

/** The organisation a caller manages integrations of: their own, or (E-Support) the one named; else a 404. */
export function integrationOrganisation(caller: AuthUser, organisationId?: number): number {
  const id = organisationId ?? caller.organisationId;
  if (!canAccessOrganisation(caller, id)) throw AppException.notFound('Organisation not found.');
  return id;
}
