import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser, isSupport } from '../../platform/web/auth-user';
import { pacedWriter } from '../../platform/web/http/paced-writer';
import { ClientInfo } from '../../platform/web/request-context';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { User } from '../../platform/database/entities/user.entity';
import { AuditEventItem } from '../../shared/audit';
import { MyDataExport, PRIVACY_MESSAGES } from '../../shared/administration/privacy';
import { ROLE_CODES } from '../../shared/roles';

type Head = Omit<MyDataExport, 'auditEventsByMe' | 'auditEventsAboutMe'>;

/** A date as the driver answers it (SQLite: UTC text without a zone; PostgreSQL: a Date) in ISO 8601. */
function iso(d: Date | string | null | undefined): string | null {
  if (!d) return null;
  if (d instanceof Date) return d.toISOString();
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(d) ? d : `${d.replace(' ', 'T')}Z`).toISOString();
}

/**
 * A person's own data (docs/privacy.md): one JSON document of everything the portal keeps about them. The small parts
 * are read first; the audit events, which may be a hundred thousand, are written page by page as the client reads
 * them (keyset pages, waiting for the socket to drain), so memory stays flat whatever their number.
 */
@Injectable()
export class MyDataService {
  private readonly logger = new Logger('MyDataExport');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly audit: AuditService,
  ) {}

  /** Writes the document to `out`; an error after the first byte cuts the download short instead of ending it. */
  async write(caller: AuthUser, out: Writable, client: ClientInfo): Promise<void> {
    const head = await this.head(caller);
    const user = { id: caller.id, email: caller.email, organisationId: caller.organisationId };
    await this.audit.record(this.audit.manager, {
      type: 'MY_DATA_EXPORTED',
      actor: user,
      target: user,
      client,
      summary: `${caller.email} downloaded their personal data`,
    });
    const { write } = pacedWriter(out);
    try {
      if (!(await write(JSON.stringify(head, null, 2).replace(/\n}$/, ',\n')))) return;
      const scope = isSupport(caller) ? null : caller.organisationId;
      for (const [key, role] of [
        ['auditEventsByMe', 'by'],
        ['auditEventsAboutMe', 'about'],
      ] as const) {
        if (!(await write(`  "${key}": [`))) return;
        let first = true;
        for await (const batch of this.audit.personBatches(caller.id, scope, role)) {
          const text = batch.map((e: AuditEventItem) => `\n    ${JSON.stringify(e)}`).join(',');
          if (!(await write((first ? '' : ',') + text))) return;
          first = false;
        }
        const close = first ? ']' : '\n  ]';
        if (!(await write(role === 'by' ? `${close},\n` : `${close}\n}\n`))) return;
      }
      out.end();
    } catch (e) {
      this.logger.error(`Personal data export failed: ${(e as Error).message}`);
      out.destroy(e as Error);
    }
  }

  /** Everything but the audit events: each part a few hundred rows at most. */
  private async head(caller: AuthUser): Promise<Head> {
    const user = await this.db.getRepository(User).findOneBy({ id: caller.id });
    const org = user ? await this.db.getRepository(Organisation).findOneBy({ id: user.organisationId }) : null;
    if (!user || !org) throw AppException.notFound(PRIVACY_MESSAGES.NOT_FOUND);
    const q = (sql: string, params: Record<string, unknown>) => {
      const [query, values] = this.db.driver.escapeQueryWithParameters(sql, params, {});
      return this.db.query(query, values) as Promise<Array<Record<string, unknown>>>;
    };
    const id = { id: user.id };
    const [sessions, signIns, notifications, feedback, contact, groups, passkeys, devices, apps] = await Promise.all([
      q(
        'SELECT "createdAt", "lastUsedAt", "endedAt", "endReason", "method", "ip", "userAgent" FROM "sessions" WHERE "userId" = :id ORDER BY "createdAt"',
        id,
      ),
      q(
        'SELECT "at", "outcome", "method", "ip", "userAgent", "newDevice" FROM "sign_in_history" WHERE "userId" = :id ORDER BY "at"',
        id,
      ),
      q('SELECT "id", "type", "content", "createdAt" FROM "notifications" WHERE "userId" = :id ORDER BY "id"', id),
      q('SELECT "title", "content" FROM "user_feedback" WHERE "userId" = :id ORDER BY "id"', id),
      q('SELECT "subject", "text", "createdAt" FROM "mail_outbox" WHERE LOWER("replyTo") = :email ORDER BY "id"', {
        email: user.email,
      }),
      q(
        'SELECT g."id", g."name" FROM "user_group_members" m JOIN "user_groups" g ON g."id" = m."groupId" WHERE m."userId" = :id ORDER BY g."name"',
        id,
      ),
      q('SELECT "name", "createdAt", "lastUsedAt" FROM "passkeys" WHERE "userId" = :id ORDER BY "id"', id),
      q(
        'SELECT "label", "createdAt", "lastUsedAt", "expiresAt" FROM "mfa_trusted_devices" WHERE "userId" = :id ORDER BY "id"',
        id,
      ),
      // The applications of the portal's OpenID provider the person consented to (docs/oidc-provider.md).
      q(
        'SELECT c."clientId", a."name", c."scopes", c."grantedAt", c."lastUsedAt" FROM "oidc_consents" c JOIN "oidc_clients" a ON a."clientId" = c."clientId" WHERE c."userId" = :id ORDER BY c."grantedAt"',
        id,
      ),
    ]);
    return {
      schemaVersion: 1,
      exportedAt: new Date().toISOString(),
      profile: {
        id: user.id,
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        jobTitle: user.jobTitle,
        department: user.department,
        location: user.location,
        createdAt: iso(user.createdAt)!,
        lastLoginAt: iso(user.lastLoginAt),
        passwordChangedAt: iso(user.passwordChangedAt),
        mfaEnabled: user.isMFAEnabled,
        mfaEnforced: user.isMFAEnforced,
        signsInThroughProvider: user.isSSO,
        directoryManaged: user.managedBy !== null,
      },
      roles: user.roles.map((r) => ROLE_CODES[r]),
      organisation: { id: org.id, code: org.code, name: org.name },
      sessions: sessions.map((s) => ({
        createdAt: iso(s.createdAt as string)!,
        lastUsedAt: iso(s.lastUsedAt as string | null),
        endedAt: iso(s.endedAt as string | null),
        endReason: (s.endReason as string | null) ?? null,
        method: s.method as string,
        ip: (s.ip as string | null) ?? null,
        userAgent: (s.userAgent as string | null) ?? null,
      })),
      signInHistory: signIns.map((s) => ({
        at: iso(s.at as string)!,
        outcome: s.outcome as 'succeeded' | 'failed',
        method: (s.method as string | null) ?? null,
        ip: (s.ip as string | null) ?? null,
        userAgent: (s.userAgent as string | null) ?? null,
        newDevice: Boolean(s.newDevice),
      })),
      notifications: notifications.map((n) => ({
        id: Number(n.id),
        type: n.type as string,
        createdAt: iso(n.createdAt as string)!,
        content: JSON.parse(n.content as string) as unknown,
      })),
      feedback: feedback.map((f) => ({ title: f.title as string, text: f.content as string })),
      contactMessages: contact.map((c) => ({
        subject: c.subject as string,
        text: c.text as string,
        createdAt: iso(c.createdAt as string)!,
      })),
      groups: groups.map((g) => ({ id: Number(g.id), name: g.name as string })),
      passkeys: passkeys.map((p) => ({
        name: p.name as string,
        createdAt: iso(p.createdAt as string)!,
        lastUsedAt: iso(p.lastUsedAt as string | null),
      })),
      trustedDevices: devices.map((d) => ({
        name: d.label as string,
        createdAt: iso(d.createdAt as string)!,
        lastUsedAt: iso(d.lastUsedAt as string | null),
        expiresAt: iso(d.expiresAt as string)!,
      })),
      applications: apps.map((a) => ({
        clientId: a.clientId as string,
        name: a.name as string,
        scopes: (a.scopes as string).split(' ').filter(Boolean),
        grantedAt: iso(a.grantedAt as string)!,
        lastUsedAt: iso(a.lastUsedAt as string | null),
      })),
    };
  }
}
