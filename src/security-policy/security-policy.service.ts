import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AuditChanges, AuditService } from '../audit';
import { AppException } from '../common/app.exception';
import { AuthUser, canAccessOrganisation, isSupport } from '../common/auth-user';
import { RequestContext } from '../common/request-context';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';
import { addressAllowed, canonicalRange } from '../credentials/security-policy-rules';
import { lockRow } from '../database/locks';
import { Organisation } from '../database/entities/organisation.entity';
import { SessionEvents } from '../sessions';
import { ERROR_CODES } from '../shared/messages';
import { Role } from '../shared/roles';
import { SECURITY_POLICY_MESSAGES as M, SecurityPolicy, SecurityPolicyChange } from '../shared/security-policy';

const FIELDS = [
  'mfaRequired',
  'ssoRequired',
  'allowedIpRanges',
  'sessionIdleMinutes',
  'sessionMaxHours',
  'passwordMinLength',
  'selfDeletion',
  'auditRetentionDays',
] as const satisfies ReadonlyArray<keyof SecurityPolicy>;

/**
 * The names the audit trail records each field under: the trail drops any field named like a secret ('password…'),
 * and the minimum length is no secret.
 */
const AUDIT_NAMES: Record<keyof SecurityPolicy, string> = {
  mfaRequired: 'mfaRequired',
  ssoRequired: 'ssoRequired',
  allowedIpRanges: 'allowedIpRanges',
  sessionIdleMinutes: 'sessionIdleMinutes',
  sessionMaxHours: 'sessionMaxHours',
  passwordMinLength: 'minimumLength',
  selfDeletion: 'selfDeletion',
  auditRetentionDays: 'auditRetentionDays',
};

/** The policy as stored; an organisation that never chose a retention keeps the deployment's. */
export function policyOf(org: Organisation, defaultRetentionDays: number): SecurityPolicy {
  return {
    mfaRequired: org.mfaRequired,
    ssoRequired: org.ssoRequired,
    allowedIpRanges: org.allowedIpRanges,
    sessionIdleMinutes: org.sessionIdleMinutes,
    sessionMaxHours: org.sessionMaxHours,
    passwordMinLength: org.passwordMinLength,
    selfDeletion: org.selfDeletion,
    auditRetentionDays: org.auditRetentionDays ?? defaultRetentionDays,
  };
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
    private readonly events: SessionEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async get(caller: AuthUser, organisationId: number): Promise<SecurityPolicy> {
    const org = canAccessOrganisation(caller, organisationId)
      ? await this.organisations.findOneBy({ id: organisationId })
      : null;
    if (!org) throw AppException.notFound('Organisation not found.');
    return policyOf(org, this.config.auditRetentionDays);
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
    const ranges = change.allowedIpRanges === undefined ? undefined : canonicalRanges(change.allowedIpRanges);
    const { after, changed } = await this.organisations.manager.transaction(async (tx) => {
      const org = await lockRow(tx, Organisation, organisationId);
      if (!org) throw AppException.notFound('Organisation not found.');
      const before = policyOf(org, this.config.auditRetentionDays);
      const next: SecurityPolicy = {
        ...before,
        ...definedOnly(change),
        ...(ranges ? { allowedIpRanges: ranges } : {}),
      };
      // E-Support is bound by no organisation's ranges; anyone else must stay able to reach what they saved.
      if (!isSupport(caller) && !addressAllowed(next.allowedIpRanges, client.ip))
        throw AppException.badRequest(M.POLICY_LOCKS_YOU_OUT, ERROR_CODES.POLICY_LOCKS_YOU_OUT);
      const changes: AuditChanges = {};
      for (const field of FIELDS)
        if (JSON.stringify(before[field]) !== JSON.stringify(next[field]))
          changes[AUDIT_NAMES[field]] = { from: before[field], to: next[field] };
      if (Object.keys(changes).length === 0) return { after: before, changed: false };
      await tx.getRepository(Organisation).update(
        { id: org.id },
        {
          ...next,
          // The site admin who requires SSO keeps their password; E-Support saving leaves that as it was.
          ssoRequiredBy: !next.ssoRequired
            ? null
            : caller.roles.includes(Role.SITE_ADMIN) && caller.organisationId === org.id
              ? caller.id
              : org.ssoRequiredBy,
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
      return { after: next, changed: true };
    });
    if (changed) this.events.emitPolicyChanged({ organisationId });
    return after;
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
    FIELDS.filter((f) => change[f] !== undefined).map((f) => [f, change[f]]),
  ) as SecurityPolicyChange;
}
