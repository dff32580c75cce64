import { Inject, Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import { AuthUser, isSupport, SupportContext } from '../web/auth-user';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';
import { AUDIT_EVENT_FIELDS, AuditActorKind, AuditEventItem, AuditEventPage, AuditEventType } from '../../shared/audit';
import { SignInFailureReason, SignInMethod } from '../../shared/administration/insights';
import { LIMITS } from '../../shared/limits';
import { ClientInfo } from '../web/request-context';
import { supportActingFor } from '../web/support-session-call';
import { publishInTransaction } from '../events';
import { AUDIT_RECORDED } from './audit-recorded';
import { AuditEventQueryDto } from './dto/audit-event-query.dto';
import { AuditEvent } from './entities/audit-event.entity';
import { caseInsensitiveLike, insertRow, placeholders, storedDate } from '../database/raw-sql';

/** An account as the trail names it; an AuthUser and a User entity both fit. */
export interface AuditParty {
  id: number;
  email: string;
  organisationId: number;
  /** An AuthUser that is an organisation API key: the trail names the key, not an account. */
  apiKey?: { id: number; name: string };
  /**
   * An AuthUser in a support-access session: the trail names the E-Support account as the actor and this account as
   * the member it acted for, whatever the event.
   */
  support?: SupportContext;
}

export type AuditChanges = Record<string, { from: unknown; to: unknown }>;

/** An organisation's directory acting through one of its provisioning tokens: the trail names the token. */
export interface AuditTokenActor {
  kind: 'scim-token';
  tokenId: number;
  tokenName: string;
  organisationId: number;
}

export interface AuditRecord {
  type: AuditEventType;
  /** The acting account, a provisioning token, the service key, or 'anonymous' (a failed sign-in). */
  actor: AuditParty | AuditTokenActor | 'service' | 'anonymous';
  target?: AuditParty | null;
  /** Whose log it belongs to; default the target's organisation, else the actor's. */
  organisationId?: number | null;
  client?: ClientInfo | null;
  /** One line for people; never a password, token, secret or code. */
  summary: string;
  changes?: AuditChanges;
  /** An event telling of a support-access request (asked, approved, started, ended): the request. */
  supportAccessId?: number;
  /**
   * A sign-in's method, or its refusal's reason; `online`: the organisation's users online with this sign-in, as the
   * concurrent-users limit counted them under the organisation's lock.
   */
  signIn?: { method?: SignInMethod; reason?: SignInFailureReason; online?: number };
}

/** Field names whose values never enter the trail, whatever a caller passes. */
const SECRET_FIELD = /password|token|secret|hash|otp|mfaCode|recovery/i;

const INSERT_COLUMNS = ['organisationId', ...AUDIT_EVENT_FIELDS].map((c) => `"${c}"`).join(', ');

/** Beyond this many matching events the page reports 'more than' instead of counting on (see countUpTo). */
export const AUDIT_COUNT_CAP = 10_000;

/** Rows per keyset batch of an export: small enough to hold the SQLite gate briefly, big enough to be quick. */
export const EXPORT_BATCH = 1000;

/**
 * The audit trail. `record` appends through the manager it is given, so an event commits or
 * rolls back with the change it describes; inside a transaction pass its `tx` (on SQLite a query through
 * another manager would wait for the gate that transaction holds). Nothing here updates an event: only erasure
 * rewrites one (users/lifecycle/personal-data.ts) and retention deletes old ones (privacy/retention.service.ts).
 */
@Injectable()
export class AuditService {
  constructor(
    @InjectRepository(AuditEvent) private readonly events: Repository<AuditEvent>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EventEmitter2) private readonly emitter: EventEmitter2,
  ) {}

  /** The manager for an event with no data change of its own (a failed sign-in, a code sent). */
  get manager(): EntityManager {
    return this.events.manager;
  }

  /** Stores the event and publishes it (AUDIT_RECORDED) to its handlers, in the same transaction. */
  async record(manager: EntityManager, event: AuditRecord): Promise<void> {
    if (this.config.auditDisabled) return;
    if (this.emitter.listenerCount(AUDIT_RECORDED) === 0) {
      await this.insert(manager, event, false);
      return;
    }
    const write = async (tx: EntityManager) => {
      const item = await this.insert(tx, event, true);
      await publishInTransaction(this.emitter, AUDIT_RECORDED, { tx, record: event, item });
    };
    // An event with no change of its own (a failed sign-in) gets a transaction, so what the handlers write commits
    // with it.
    if (manager.queryRunner?.isTransactionActive) await write(manager);
    else await manager.transaction(write);
  }

  /** Stores the event; with `withId`, answers it as GET /api/audit-events lists it (its id read back). */
  private async insert(manager: EntityManager, event: AuditRecord, withId: boolean): Promise<AuditEventItem> {
    const token = typeof event.actor === 'object' && 'kind' in event.actor ? event.actor : null;
    const key = typeof event.actor === 'object' && !token ? (event.actor as AuditParty).apiKey : undefined;
    const actor: AuditParty | null =
      typeof event.actor !== 'object'
        ? null
        : token
          ? { id: token.tokenId, email: token.tokenName, organisationId: token.organisationId }
          : key
            ? { id: key.id, email: key.name, organisationId: (event.actor as AuditParty).organisationId }
            : (event.actor as AuditParty);
    const actorKind: AuditActorKind = token
      ? 'scim-token'
      : key
        ? 'api-key'
        : actor
          ? 'user'
          : (event.actor as AuditActorKind);
    // In a support-access session the member is the caller; the trail names the E-Support account acting for them.
    const support = actor && !token && !key ? (actor.support ?? supportActingFor(actor.id)) : undefined;
    const member = support ? actor : null;
    const target = event.target ?? null;
    const now = new Date();
    const changes = event.changes ? withoutSecrets(event.changes) : null;
    const row: Omit<AuditEventItem, 'id'> = {
      occurredAt: now.toISOString(),
      type: event.type,
      actorKind,
      actorId: support ? support.actorId : (actor?.id ?? null),
      actorEmail: support ? support.actorEmail : (actor?.email ?? null),
      actorOrganisationId: support ? support.actorOrganisationId : (actor?.organisationId ?? null),
      targetId: target?.id ?? null,
      targetEmail: target?.email ?? null,
      targetOrganisationId: target?.organisationId ?? null,
      organisationId:
        event.organisationId !== undefined
          ? event.organisationId
          : (target?.organisationId ?? actor?.organisationId ?? null),
      ip: event.client?.ip?.slice(0, 64) ?? null,
      userAgent: event.client?.userAgent?.slice(0, 300) ?? null,
      summary: event.summary.slice(0, 500),
      changes,
      onBehalfOfId: member?.id ?? null,
      onBehalfOfEmail: member?.email ?? null,
      supportAccessId: support?.accessId ?? event.supportAccessId ?? null,
    };
    // In INSERT_COLUMNS' order: the organisation, then AUDIT_EVENT_FIELDS.
    const values = [
      row.organisationId,
      storedDate(manager, now),
      row.type,
      row.actorKind,
      row.actorId,
      row.actorEmail,
      row.actorOrganisationId,
      row.targetId,
      row.targetEmail,
      row.targetOrganisationId,
      row.ip,
      row.userAgent,
      row.summary,
      changes ? JSON.stringify(changes) : null,
      row.onBehalfOfId,
      row.onBehalfOfEmail,
      row.supportAccessId,
    ];
    // One plain statement: this runs inside the transaction of every recorded change, so it is kept cheap.
    const sql = `INSERT INTO audit_events (${INSERT_COLUMNS}) VALUES (${placeholders(values)})`;
    // With `withId`, its id read back; 0 otherwise.
    const id = await insertRow(manager, sql, values, withId);
    return { id, ...row };
  }

  /** One page, newest first, of the events the caller may see (their organisation's; E-Support every one's). */
  async list(caller: AuthUser, query: AuditEventQueryDto): Promise<AuditEventPage> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? LIMITS.DEFAULT_PAGE_SIZE;
    const [rows, totalRecords] = await Promise.all([
      this.filtered(caller, query)
        .orderBy('e.occurredAt', 'DESC')
        .addOrderBy('e.id', 'DESC')
        .offset((page - 1) * pageSize)
        .limit(pageSize)
        .getMany(),
      this.countUpTo(this.filtered(caller, query), AUDIT_COUNT_CAP + 1),
    ]);
    const capped = totalRecords > AUDIT_COUNT_CAP;
    return {
      items: rows.map(toItem),
      totalRecords: capped ? AUDIT_COUNT_CAP : totalRecords,
      totalIsCapped: capped,
      page,
      pageSize,
    };
  }

  /**
   * Counts the matching events, stopping at `limit`: an exact count of a million events reads a million index
   * entries on every page view, while the pages themselves stop after pageSize rows. Beyond the cap the page says
   * "more than", and the export holds them all.
   */
  private async countUpTo(qb: SelectQueryBuilder<AuditEvent>, limit: number): Promise<number> {
    const [sql, params] = qb.select('1').limit(limit).getQueryAndParameters();
    const rows: Array<{ n: number | string }> = await this.events.manager.query(
      `SELECT COUNT(*) AS n FROM (${sql}) capped`,
      params,
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Every event of the filter, newest first, in keyset batches (no offset: the last batch costs what the first does). */
  async *exportBatches(caller: AuthUser, query: AuditEventQueryDto): AsyncGenerator<AuditEventItem[]> {
    let after: { at: Date; id: number } | null = null;
    for (;;) {
      const qb = this.filtered(caller, query)
        .orderBy('e.occurredAt', 'DESC')
        .addOrderBy('e.id', 'DESC')
        .limit(EXPORT_BATCH);
      // A row-value comparison, so that the database seeks the index to the last row instead of walking to it.
      if (after) qb.andWhere('(e.occurredAt, e.id) < (:at, :lastId)', { at: after.at, lastId: after.id });
      const rows = await qb.getMany();
      if (rows.length > 0) yield rows.map(toItem);
      if (rows.length < EXPORT_BATCH) return;
      const last = rows[rows.length - 1];
      after = { at: last.occurredAt, id: last.id };
    }
  }

  /**
   * The events by one account (`by`) or about it and not by it (`about`), oldest first, in keyset batches: a
   * person's own data (docs/privacy.md). `organisationId`: the person's organisation, where every event by or about a
   * member is kept (the seek uses its actor and target indexes); null for E-Support, whose events are anyone's.
   */
  async *personBatches(
    userId: number,
    organisationId: number | null,
    role: 'by' | 'about',
  ): AsyncGenerator<AuditEventItem[]> {
    let after: { at: Date; id: number } | null = null;
    for (;;) {
      const qb = this.events.createQueryBuilder('e');
      if (organisationId === null) qb.where('1 = 1');
      else qb.where('e.organisationId = :org', { org: organisationId });
      if (role === 'by') qb.andWhere("e.actorId = :id AND e.actorKind = 'user'", { id: userId });
      else qb.andWhere("e.targetId = :id AND NOT (e.actorId = :id AND e.actorKind = 'user')", { id: userId });
      qb.orderBy('e.occurredAt', 'ASC').addOrderBy('e.id', 'ASC').limit(EXPORT_BATCH);
      if (after) qb.andWhere('(e.occurredAt, e.id) > (:at, :lastId)', { at: after.at, lastId: after.id });
      const rows = await qb.getMany();
      if (rows.length > 0) yield rows.map(toItem);
      if (rows.length < EXPORT_BATCH) return;
      const last = rows[rows.length - 1];
      after = { at: last.occurredAt, id: last.id };
    }
  }

  private filtered(caller: AuthUser, query: AuditEventQueryDto): SelectQueryBuilder<AuditEvent> {
    const qb = this.events.createQueryBuilder('e');
    if (isSupport(caller)) qb.where('1 = 1');
    else qb.where('e.organisationId = :org', { org: caller.organisationId });
    const from = query.from ? parseBound(query.from, 'from') : null;
    const to = query.to ? parseBound(query.to, 'to') : null;
    if (from) qb.andWhere('e.occurredAt >= :from', { from });
    if (to) qb.andWhere('e.occurredAt < :to', { to });
    if (query.type) qb.andWhere('e.type = :type', { type: query.type });
    if (query.actorId) qb.andWhere('e.actorId = :actorId', { actorId: query.actorId });
    if (query.targetId) qb.andWhere('e.targetId = :targetId', { targetId: query.targetId });
    if (query.supportAccessId)
      qb.andWhere('e.supportAccessId = :supportAccessId', { supportAccessId: query.supportAccessId });
    if (query.onBehalfOfId) qb.andWhere('e.onBehalfOfId = :onBehalfOfId', { onBehalfOfId: query.onBehalfOfId });
    const text = query.searchText?.trim();
    if (text) {
      const like = caseInsensitiveLike(this.events.manager);
      qb.andWhere(
        `(e.summary ${like} :q ESCAPE '\\' OR e.actorEmail ${like} :q ESCAPE '\\' OR e.targetEmail ${like} :q ESCAPE '\\' OR e.ip ${like} :q ESCAPE '\\')`,
        { q: likePattern(text) },
      );
    }
    return qb;
  }
}

/** Escapes LIKE wildcards so that the search text is taken literally (ESCAPE '\'). */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A bare date 'to' means the end of that day (the filter is inclusive); a date-time is taken as given. */
function parseBound(value: string, side: 'from' | 'to'): Date {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const d = new Date(dateOnly ? `${value}T00:00:00.000Z` : value);
  if (side === 'to') return dateOnly ? new Date(d.getTime() + 86_400_000) : new Date(d.getTime() + 1);
  return d;
}

function withoutSecrets(changes: AuditChanges): AuditChanges {
  return Object.fromEntries(Object.entries(changes).filter(([key]) => !SECRET_FIELD.test(key)));
}

export function toItem(e: AuditEvent): AuditEventItem {
  return {
    id: e.id,
    occurredAt: new Date(e.occurredAt).toISOString(),
    type: e.type,
    actorKind: e.actorKind,
    actorId: e.actorId,
    actorEmail: e.actorEmail,
    actorOrganisationId: e.actorOrganisationId,
    targetId: e.targetId,
    targetEmail: e.targetEmail,
    targetOrganisationId: e.targetOrganisationId,
    organisationId: e.organisationId,
    ip: e.ip,
    userAgent: e.userAgent,
    summary: e.summary,
    changes: e.changes ? (JSON.parse(e.changes) as AuditEventItem['changes']) : null,
    onBehalfOfId: e.onBehalfOfId,
    onBehalfOfEmail: e.onBehalfOfEmail,
    supportAccessId: e.supportAccessId,
  };
}
