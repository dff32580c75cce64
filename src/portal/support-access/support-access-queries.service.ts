import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser, isSupport } from '../../platform/web/auth-user';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { User } from '../../platform/database/entities/user.entity';
import { ERROR_CODES, ErrorCode } from '../../shared/messages';
import {
  SUPPORT_ACCESS_MESSAGES as M,
  SupportAccessItem,
  SupportAccessParty,
} from '../../shared/portal/support-access';
import { SupportAccessQueryDto } from './dto/support-access.dto';
import { SupportAccess } from './entities/support-access.entity';

/** The most requests one list answers, newest first. */
const LIST_MAX = 500;

/** A request not in the state the call needs (409). */
export function conflict(message: string, code: ErrorCode = ERROR_CODES.SUPPORT_ACCESS_STATE): AppException {
  return new AppException(HttpStatus.CONFLICT, code, message);
}

/** Support access as it is read: the requests as listed, and whether an organisation allows it at all. */
@Injectable()
export class SupportAccessQueries {
  constructor(
    @InjectRepository(SupportAccess) private readonly requests: Repository<SupportAccess>,
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
  ) {}

  /** GET /api/support-access: E-Support sees every organisation's (or one's); others their organisation's. */
  async list(caller: AuthUser, query: SupportAccessQueryDto): Promise<SupportAccessItem[]> {
    const qb = this.requests.createQueryBuilder('r').orderBy('r.requestedAt', 'DESC').addOrderBy('r.id', 'DESC');
    if (isSupport(caller)) {
      if (query.organisationId) qb.where('r.organisationId = :org', { org: query.organisationId });
    } else qb.where('r.organisationId = :org', { org: caller.organisationId });
    const rows = await qb.limit(LIST_MAX).getMany();
    const people = await this.users.findBy({ id: In([...new Set(rows.flatMap((r) => [r.userId, r.supportUserId]))]) });
    const orgs = await this.organisations.findBy({ id: In([...new Set(rows.map((r) => r.organisationId))]) });
    const byId = new Map(people.map((u) => [u.id, u]));
    const orgName = new Map(orgs.map((o) => [o.id, o.name]));
    const now = Date.now();
    return rows
      .map((r) => toItem(r, byId, orgName.get(r.organisationId) ?? '', now))
      .filter((item) => !query.status || item.status === query.status);
  }

  /** One request as listed. */
  async item(id: number): Promise<SupportAccessItem> {
    const row = await this.requests.findOneByOrFail({ id });
    const people = await this.users.findBy({ id: In([row.userId, row.supportUserId]) });
    const org = await this.organisations.findOneBy({ id: row.organisationId });
    return toItem(row, new Map(people.map((u) => [u.id, u])), org?.name ?? '', Date.now());
  }

  /** The organisation's support access policy ('never', 'ask', 'always'); undefined when it is gone. */
  async policy(organisationId: number): Promise<Organisation['supportAccess'] | undefined> {
    return (await this.organisations.findOneBy({ id: organisationId }))?.supportAccess;
  }

  /** Refuses (403) when the organisation has support access off. */
  async assertAllowed(organisationId: number): Promise<void> {
    const policy = await this.policy(organisationId);
    if (!policy || policy === 'never') throw AppException.forbidden(M.OFF, ERROR_CODES.SUPPORT_ACCESS_OFF);
  }
}

function party(u: User | undefined, id: number, email: string): SupportAccessParty {
  return { id, email: u?.email ?? email, firstName: u?.firstName ?? '', lastName: u?.lastName ?? '' };
}

/** The request as listed: a pending or approved one past its lapse reads expired, an active one past its end ended. */
function toItem(r: SupportAccess, people: Map<number, User>, organisationName: string, now: number): SupportAccessItem {
  let status = r.status;
  if ((status === 'pending' || status === 'approved') && r.expiresAt.getTime() <= now) status = 'expired';
  if (status === 'active' && r.endsAt && r.endsAt.getTime() <= now) status = 'ended';
  return {
    id: r.id,
    organisationId: r.organisationId,
    organisationName,
    supportUser: party(people.get(r.supportUserId), r.supportUserId, r.supportUserEmail),
    user: party(people.get(r.userId), r.userId, ''),
    reason: r.reason,
    status,
    requestedAt: r.requestedAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    startedAt: r.startedAt?.toISOString() ?? null,
    endsAt: r.endsAt?.toISOString() ?? null,
    endedAt: r.endedAt?.toISOString() ?? null,
  };
}
