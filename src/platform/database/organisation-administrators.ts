import { EntityManager, In } from 'typeorm';
import { Role } from '../../shared/roles';
import { User } from './entities/user.entity';

/**
 * Who hears of changes to an organisation's accounts and sign-in settings (a just-in-time account, a domain's
 * record gone): its site admins and administrators (the Administrator role or the flag) who may still sign in.
 * Read through `manager`, so a notice is sent in the transaction of the change it tells of.
 */
export function organisationAdministrators(
  manager: EntityManager,
  organisationId: number,
): Promise<Array<Pick<User, 'id' | 'email'>>> {
  return manager.getRepository(User).find({
    where: [
      { organisationId, roleId: In([Role.SITE_ADMIN, Role.ADMINISTRATOR]), isDisabled: false, isBlocked: false },
      { organisationId, isAdministrator: true, isDisabled: false, isBlocked: false },
    ],
    select: { id: true, email: true },
  });
}
