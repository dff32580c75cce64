import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser, canAccessOrganisation } from '../../platform/web/auth-user';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { roleNames } from '../../shared/roles';
import { UserListQueryDto } from './dto/user-list-query.dto';
import { User } from '../../platform/database/entities/user.entity';
import { whereAccessAndRole, whereNameOrEmailLike } from './search/text-match';
import { USER_MESSAGES } from './users.service';

/** Columns of GET /api/users/export, in order. */
export const USER_CSV_COLUMNS = [
  'id',
  'email',
  'firstName',
  'lastName',
  'roles',
  'access',
  'mfaEnforced',
  'mfaEnabled',
  'sso',
  'lastLogin',
] as const;

const BATCH = 1000;

/**
 * The user list as CSV: the list page's filters (text, access, role; E-Support: the organisation),
 * every matching user, read in keyset batches by id so that an organisation of any size streams in constant memory.
 */
@Injectable()
export class UsersExportService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
  ) {}

  /** Checks access before the first byte is sent; the rows follow in batches. */
  async open(caller: AuthUser, query: UserListQueryDto): Promise<AsyncGenerator<unknown[][]>> {
    const id = query.organisationId ?? caller.organisationId;
    if (!canAccessOrganisation(caller, id) || !(await this.organisations.existsBy({ id })))
      throw AppException.notFound(USER_MESSAGES.ORGANISATION_NOT_FOUND);
    return this.batches(id, query);
  }

  private async *batches(organisationId: number, query: UserListQueryDto): AsyncGenerator<unknown[][]> {
    let lastId = 0;
    for (;;) {
      const qb = this.users
        .createQueryBuilder('u')
        .where('u.organisationId = :org AND u.id > :lastId', { org: organisationId, lastId });
      const text = query.searchText?.trim();
      if (text) whereNameOrEmailLike(qb, text);
      whereAccessAndRole(qb, query);
      const rows = await qb.orderBy('u.id', 'ASC').limit(BATCH).getMany();
      if (rows.length > 0) yield rows.map(toCsvRow);
      if (rows.length < BATCH) return;
      lastId = rows[rows.length - 1].id;
    }
  }
}

function toCsvRow(u: User): unknown[] {
  return [
    u.id,
    u.email,
    u.firstName,
    u.lastName,
    roleNames(u.roles),
    u.isBlocked ? 'blocked' : u.isDisabled ? 'disabled' : 'active',
    u.isMFAEnforced,
    u.isMFAEnabled,
    u.isSSO,
    u.lastLoginAt ? new Date(u.lastLoginAt).toISOString() : null,
  ];
}
