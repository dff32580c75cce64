import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, MoreThan, Repository } from 'typeorm';
import { AuditService } from '../../../platform/audit';
import { AuthUser } from '../../../platform/web/auth-user';
import { AppException } from '../../../platform/web/app.exception';
import { APP_CONFIG } from '../../../platform/config/app-config.module';
import { AppConfig } from '../../../platform/config/env.validation';
import { safeReturnPath } from '../../../shared/identity/return-path';
import { SSO_LIMITS, SSO_MESSAGES, SsoTestClaim, SsoTestResult, SsoTestStart } from '../../../shared/identity/sso';
import { User } from '../../../platform/database/entities/user.entity';
import { SsoConnection } from '../entities/sso-connection.entity';
import { SsoTestResultRow } from '../entities/sso-test-result.entity';
import { FederatedIdentity, FederatedSignInService } from '../sign-in/federated-sign-in.service';
import { ProviderRefusal } from '../connectors/provider-refusal';
import { SsoConnectionsService } from '../connections/sso-connections.service';
import { refusalMessage } from '../round-trip/round-trip-purpose';

/** How long the test round trip may take, and how long its result stays readable. */
const TEST_SECONDS = 10 * 60;

/** The key of a stored result: 24 random bytes, base64url. */
export const TEST_RESULT_KEY = /^[A-Za-z0-9_-]{32}$/;

/** Who started a test, and where their browser goes back to. */
export interface SsoTestTicket {
  sub: number;
  returnTo: string;
}

/** A test round trip's end: the identity the provider asserted, or the reason it failed. */
export type SsoTestEnd = { identity: FederatedIdentity & { claims: Record<string, unknown> } } | { error: unknown };

function asText(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return (text ?? '').slice(0, SSO_LIMITS.TEST_CLAIM_VALUE_MAX);
}

function claimList(claims: Record<string, unknown>): SsoTestClaim[] {
  return Object.entries(claims)
    .filter(([, v]) => v !== undefined && v !== null)
    .slice(0, SSO_LIMITS.TEST_CLAIMS_MAX)
    .map(([name, value]) => ({ name: name.slice(0, 200), value: asText(value) }));
}

/**
 * 'Test connection' on the Single Sign-On page: a real sign-in round trip through the connection (enabled or
 * not), with every check of the protocol, that ends back on the page with what the provider sent and what a
 * real sign-in would do, for the administrator who started it. Nothing is linked, created or signed in.
 */
@Injectable()
export class SsoConnectionTestService {
  constructor(
    @InjectRepository(SsoTestResultRow) private readonly results: Repository<SsoTestResultRow>,
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly connections: SsoConnectionsService,
    private readonly federated: FederatedSignInService,
    private readonly audit: AuditService,
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** POST /api/sso-connections/{id}/test: the start URL, with a ticket naming the caller and the page to return to. */
  async begin(caller: AuthUser, id: number): Promise<SsoTestStart> {
    const c = await this.connections.accessible(caller, id);
    const returnTo =
      c.organisationId === caller.organisationId ? '/users/sso' : `/users/sso?organisationId=${c.organisationId}`;
    const ticket = this.jwt.sign(
      { typ: 'sso-test', cid: c.id, sub: caller.id, ret: returnTo },
      { expiresIn: TEST_SECONDS },
    );
    return { url: `/auth/sso/${c.id}?test=${encodeURIComponent(ticket)}` };
  }

  /** The ticket of a test of connection `id`, or a refusal the sign-in page shows. */
  readTicket(ticket: string, id: number): SsoTestTicket {
    try {
      const p = this.jwt.verify<{ typ: string; cid: number; sub: number; ret: string }>(ticket);
      if (p.typ === 'sso-test' && p.cid === id && p.ret.startsWith('/users/sso'))
        return { sub: p.sub, returnTo: p.ret };
    } catch {
      // Expired or not ours: refused below.
    }
    throw AppException.badRequest(SSO_MESSAGES.TEST_EXPIRED);
  }

  /** Keeps what the round trip brought for the tester, audits the test, and names the page that shows it. */
  async record(
    c: SsoConnection,
    ticket: SsoTestTicket,
    end: SsoTestEnd,
    client: { ip: string | null; userAgent: string | null },
  ): Promise<string> {
    const tester = await this.users.findOneBy({ id: ticket.sub });
    if (!tester) throw AppException.badRequest(SSO_MESSAGES.TEST_EXPIRED);
    const result = await this.verdict(c, end);
    const key = randomBytes(24).toString('base64url');
    await this.results.delete({ expiresAt: LessThan(new Date()) });
    await this.results.manager.transaction(async (tx) => {
      await tx.getRepository(SsoTestResultRow).insert({
        key,
        connectionId: c.id,
        userId: tester.id,
        result: JSON.stringify(result),
        expiresAt: new Date(Date.now() + TEST_SECONDS * 1000),
      });
      await this.audit.record(tx, {
        type: 'SSO_CONNECTION_TESTED',
        actor: tester,
        organisationId: c.organisationId,
        client,
        summary:
          `${c.protocol.toUpperCase()} connection '${c.name}' tested: ${result.outcome.toLowerCase().replace('_', ' ')}`.slice(
            0,
            300,
          ),
      });
    });
    // The page is the server's own choice; it still goes through the one rule for where a browser is sent next.
    const back = safeReturnPath(ticket.returnTo, this.config.publicUrl) ?? '/users/sso';
    return `${back}${back.includes('?') ? '&' : '?'}connection=${c.id}&ssoTest=${key}`;
  }

  private async verdict(c: SsoConnection, end: SsoTestEnd): Promise<SsoTestResult> {
    const base = {
      connectionId: c.id,
      connectionName: c.name,
      protocol: c.protocol,
      testedAt: new Date().toISOString(),
    };
    if ('error' in end) {
      const e = end.error;
      return {
        ...base,
        ok: false,
        outcome: 'FAILED',
        message: `${SSO_MESSAGES.TEST_ROUND_TRIP_FAILED} ${refusalMessage(e)}`,
        ...(e instanceof ProviderRefusal ? { detail: e.detail.slice(0, 1000) } : {}),
        claims: [],
      };
    }
    const { outcome, message } = await this.federated.assess(c, end.identity);
    return { ...base, ok: true, outcome, message, claims: claimList(end.identity.claims) };
  }

  /** GET /api/sso-connections/{id}/test-results/{key}: only for the person who ran the test, for a few minutes. */
  async result(caller: AuthUser, id: number, key: string): Promise<SsoTestResult> {
    await this.connections.accessible(caller, id);
    if (!TEST_RESULT_KEY.test(key)) throw AppException.notFound(SSO_MESSAGES.TEST_RESULT_NOT_FOUND);
    const row = await this.results.findOneBy({
      key,
      connectionId: id,
      userId: caller.id,
      expiresAt: MoreThan(new Date()),
    });
    if (!row) throw AppException.notFound(SSO_MESSAGES.TEST_RESULT_NOT_FOUND);
    return JSON.parse(row.result) as SsoTestResult;
  }
}
