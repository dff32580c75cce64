import { Inject, Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AuditChanges, AuditService } from '../../platform/audit';
import { publish } from '../../platform/events';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser, canAccessOrganisation, isSupport } from '../../platform/web/auth-user';
import { RequestContext } from '../../platform/web/request-context';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { addressAllowed, canonicalRange } from '../../identity/credentials/security-policy-rules';
import { lockRow } from '../../platform/database/locks';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { User } from '../../platform/database/entities/user.entity';
import { SsoDiscoveryService } from '../../identity/federation';
import { Session, SESSION_POLICY_CHANGED, SessionsService } from '../../identity/sessions';
import { ERROR_CODES } from '../../shared/messages';
import { Role } from '../../shared/roles';
import {
  SECURITY_POLICY_FIELD_NAMES,
  SECURITY_POLICY_FIELDS,
  SECURITY_POLICY_MESSAGES as M,
  SecurityPolicy,
  SecurityPolicyChange,
} from '../../shared/administration/security-policy';

/** The name the audit trail records a field under (it drops any field named like a secret, 'password…'). */
function auditName(name: keyof SecurityPolicy): string {
  return SECURITY_POLICY_FIELDS[name].auditName ?? name;
}

/** The fields whose row keeps null until the organisation chooses, following the deployment's setting until then. */
const FOLLOWING_DEPLOYMENT = SECURITY_POLICY_FIELD_NAMES.filter((name) => {
  const field = SECURITY_POLICY_FIELDS[name];
  return field.kind === 'whole' && !field.nullable && field.deploymentDefault === true;
});

/** The deployment's settings a policy follows until the organisation chooses its own. */
export type DeploymentPolicy = Pick<SecurityPolicy, 'auditRetentionDays'>;

/** The policy as stored; a field the organisation never chose follows the deployment's. */
export function policyOf(org: Organisation, deployment: DeploymentPolicy): SecurityPolicy {
  const stored: Pick<Organisation, keyof SecurityPolicy> = org;
  const policy = {} as Record<keyof SecurityPolicy, unknown>;
  for (const name of SECURITY_POLICY_FIELD_NAMES) policy[name] = stored[name];
  for (const name of FOLLOWING_DEPLOYMENT) policy[name] ??= deployment[name as keyof DeploymentPolicy];
  return policy as SecurityPolicy;
}

/**
 * An organisation's security policy (docs/security-policy.md): read by its site admins and administrators, changed
 * by its site admins, E-Support for any organisation. The rules are enforced where they apply (the session check,
 * sign-in, refresh, the password rules); this service keeps the row and tells live connections that it changed.
 */
@Injectable()
export class SecurityPolicyService {
  constructor(
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    private readonly audit: AuditService,
    @Inject(EventEmitter2) private readonly events: EventEmitter2,
    private readonly sessions: SessionsService,
    private readonly sso: SsoDiscoveryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private deployment(): DeploymentPolicy {
    return { auditRetentionDays: this.config.auditRetentionDays };
  }

  async get(caller: AuthUser, organisationId: number): Promise<SecurityPolicy> {
    const org = canAccessOrganisation(caller, organisationId)
      ? await this.organisations.findOneBy({ id: organisationId })
      : null;
    if (!org) throw AppException.notFound('Organisation not found.');
    return policyOf(org, this.deployment());
  }

  /**
   * Changes the fields sent, under the organisation's row lock (parallel saves apply one after the other, each to
   * what the one before left), audited with each change's before and after.
   */
  async change(
    caller: AuthUser,
    organisationId: number,
    change: SecurityPolicyChange,
    client: RequestContext,
  ): Promise<SecurityPolicy> {
    if (!canAccessOrganisation(caller, organisationId)) throw AppException.notFound('Organisation not found.');
    // The organisation's consent to support access is its own: E-Support never gives it itself.
    if (change.supportAccess !== undefined && caller.organisationId !== organisationId)
      throw AppException.forbidden(M.SUPPORT_ACCESS_OWN_ONLY);
    const ranges = change.allowedIpRanges === undefined ? undefined : canonicalRanges(change.allowedIpRanges);
    const { after, changed, ssoRequiredBy } = await this.organisations.manager.transaction(async (tx) => {
      const org = await lockRow(tx, Organisation, organisationId);
      if (!org) throw AppException.notFound('Organisation not found.');
      const before = policyOf(org, this.deployment());
      const next: SecurityPolicy = {
        ...before,
        ...definedOnly(change),
        ...(ranges ? { allowedIpRanges: ranges } : {}),
      };
      // E-Support is bound by no organisation's ranges; anyone else must stay able to reach what they saved.
      if (!isSupport(caller) && !addressAllowed(next.allowedIpRanges, client.ip))
        throw AppException.badRequest(M.POLICY_LOCKS_YOU_OUT, ERROR_CODES.POLICY_LOCKS_YOU_OUT);
      const changes: AuditChanges = {};
      for (const field of SECURITY_POLICY_FIELD_NAMES)
        if (JSON.stringify(before[field]) !== JSON.stringify(next[field]))
          changes[auditName(field)] = { from: before[field], to: next[field] };
      if (Object.keys(changes).length === 0) return { after: before, changed: false, ssoRequiredBy: null };
      // The site admin who requires SSO keeps their password; E-Support saving leaves that as it was.
      const ssoRequiredBy = !next.ssoRequired
        ? null
        : caller.roles.includes(Role.SITE_ADMIN) && caller.organisationId === org.id
          ? caller.id
          : org.ssoRequiredBy;
      await tx.getRepository(Organisation).update(
        { id: org.id },
        {
          ...next,
          // Until the organisation chooses, a field follows the deployment's setting (a later change of it too).
          ...Object.fromEntries(FOLLOWING_DEPLOYMENT.filter((f) => change[f] === undefined).map((f) => [f, org[f]])),
          ssoRequiredBy,
          // A new idle limit counts idle time from now, not from before it existed.
          ...(before.sessionIdleMinutes !== next.sessionIdleMinutes ? { securityPolicyAt: new Date() } : {}),
        },
      );
      await this.audit.record(tx, {
        type: 'SECURITY_POLICY_CHANGED',
        actor: caller,
        organisationId: org.id,
        client,
        summary: `Security policy changed: ${Object.keys(changes).join(', ')}`,
        changes,
      });
      return { after: next, changed: true, ssoRequiredBy };
    });
    if (changed) publish(this.events, SESSION_POLICY_CHANGED, { organisationId });
    if (changed && after.ssoRequired) await this.endSessionsSsoReplaces(organisationId, ssoRequiredBy);
    return after;
  }

  /**
   * Single sign-on required: the open sessions the requirement would not have let in (opened with a password or a
   * passkey by the members it covers) end now, on every instance (ended in the database, their sockets told), each
   * audited as ended by the policy. A save that leaves the requirement on ends nothing more, save those of a site
   * admin it no longer spares. The refresh and the step-up ask the same rule afresh (SessionAuthService), so a
   * session it reaches later (a domain verified afterwards) ends at its next refresh.
   */
  private async endSessionsSsoReplaces(organisationId: number, ssoRequiredBy: number | null): Promise<void> {
    const query = this.organisations.manager
      .getRepository(Session)
      .createQueryBuilder('s')
      .innerJoin(User, 'u', 'u.id = s.userId')
      .select(['s.id AS "sessionId"', 's.userId AS "userId"', 'u.email AS "email"'])
      .where('s.organisationId = :organisationId AND s.endedAt IS NULL AND s.method <> :sso', {
        organisationId,
        sso: 'sso',
      })
      .andWhere('u.roleId <> :support', { support: Role.E_SUPPORT });
    if (ssoRequiredBy !== null) query.andWhere('u.id <> :spared', { spared: ssoRequiredBy });
    const open = await query.getRawMany<{ sessionId: string; userId: number; email: string }>();
    const accounts = [
      ...new Map(open.map((o) => [Number(o.userId), { id: Number(o.userId), email: o.email }])).values(),
    ];
    const covered = new Set(await this.sso.coveredAmong(organisationId, accounts));
    for (const s of open) if (covered.has(Number(s.userId))) await this.sessions.end(s.sessionId, 'sso-required');
  }
}

/** Each range in its canonical form, without repeats; 400 naming the first that is not a range. */
function canonicalRanges(ranges: string[]): string[] {
  const out: string[] = [];
  for (const range of ranges) {
    const canonical = canonicalRange(range);
    if (canonical === null) throw AppException.badRequest(M.RANGE_INVALID(range.slice(0, 64)));
    if (!out.includes(canonical)) out.push(canonical);
  }
  return out;
}

function definedOnly(change: SecurityPolicyChange): SecurityPolicyChange {
  return Object.fromEntries(
    SECURITY_POLICY_FIELD_NAMES.filter((f) => change[f] !== undefined).map((f) => [f, change[f]]),
  ) as SecurityPolicyChange;
}
