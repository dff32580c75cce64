import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { AuditService } from '../../../platform/audit';
import { AppException } from '../../../platform/web/app.exception';
import { AuthUser, canAccessOrganisation, isSupport } from '../../../platform/web/auth-user';
import { decrypt, encrypt } from '../../../platform/crypto/secrets';
import { RequestContext } from '../../../platform/web/request-context';
import { APP_CONFIG } from '../../../platform/config/app-config.module';
import { AppConfig } from '../../../platform/config/env.validation';
import { Organisation } from '../../../platform/database/entities/organisation.entity';
import { lockRow } from '../../../platform/database/locks';
import { AUDIT_EVENT_TYPES, AuditEventItem } from '../../../shared/audit';
import {
  INTEGRATION_MESSAGES,
  LOG_STREAMS_MAX,
  LogStreamItem,
  LogStreamTestResult,
} from '../../../shared/administration/integrations';
import { logStreamRequest } from '../delivery/payload-formats';
import { postOnce, receiverFetch } from '../delivery/outbound';
import { CreateLogStreamDto } from '../dto/log-stream.dto';
import { IntegrationDelivery } from '../entities/integration-delivery.entity';
import { LogStream } from '../entities/log-stream.entity';
import { auditedUrl, receiverUrl } from '../receiver-url';

/**
 * Audit log streams: an organisation's (its site admins, or E-Support naming it), or every organisation's (E-Support
 * without organisationId). The token is stored encrypted and never returned.
 */
@Injectable()
export class LogStreamsService {
  private readonly fetch;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(LogStream) private readonly streams: Repository<LogStream>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    private readonly audit: AuditService,
  ) {
    this.fetch = receiverFetch(config.allowPrivateNetworks);
  }

  /** The organisation whose streams the caller names: theirs, the one E-Support names, or null (E-Support: all). */
  private async scope(caller: AuthUser, organisationId?: number): Promise<number | null> {
    if (organisationId === undefined) return isSupport(caller) ? null : caller.organisationId;
    if (!canAccessOrganisation(caller, organisationId) || !(await this.organisations.existsBy({ id: organisationId })))
      throw AppException.notFound('Organisation not found.');
    return organisationId;
  }

  private async stream(caller: AuthUser, id: number): Promise<LogStream> {
    const row = await this.streams.findOneBy({ id });
    const reachable =
      row && (row.organisationId === null ? isSupport(caller) : canAccessOrganisation(caller, row.organisationId));
    if (!row || !reachable) throw AppException.notFound(INTEGRATION_MESSAGES.STREAM_NOT_FOUND);
    return row;
  }

  async list(caller: AuthUser, organisationId?: number): Promise<LogStreamItem[]> {
    const scope = await this.scope(caller, organisationId);
    const rows = await this.streams.find({
      where: { organisationId: scope === null ? IsNull() : scope },
      order: { id: 'ASC' },
    });
    return rows.map(toItem);
  }

  async create(
    caller: AuthUser,
    dto: CreateLogStreamDto,
    organisationId: number | undefined,
    client: RequestContext,
  ): Promise<LogStreamItem> {
    const scope = await this.scope(caller, organisationId);
    const url = receiverUrl(dto.url, this.config.allowPrivateNetworks);
    const saved = await this.streams.manager.transaction(async (tx) => {
      // Parallel additions queue on the organisation's row (or, for every organisation's streams, the caller's).
      await lockRow(tx, Organisation, scope ?? caller.organisationId);
      const count = await tx.getRepository(LogStream).countBy({ organisationId: scope === null ? IsNull() : scope });
      if (count >= LOG_STREAMS_MAX) throw AppException.conflict(INTEGRATION_MESSAGES.TOO_MANY_STREAMS);
      const repo = tx.getRepository(LogStream);
      const row = await repo.save(
        repo.create({
          organisationId: scope,
          type: dto.type,
          url,
          tokenSealed: encrypt(dto.token, this.config.encryptionKey),
          createdBy: caller.email,
          lastDeliveredAt: null,
          lastError: null,
        }),
      );
      await this.audit.record(tx, {
        type: 'LOG_STREAM_CREATED',
        actor: caller,
        organisationId: scope ?? caller.organisationId,
        client,
        summary: `Audit log stream (${dto.type}) to ${auditedUrl(url)} added${scope === null ? ' for every organisation' : ''}`,
      });
      return row;
    });
    return toItem(saved);
  }

  async remove(caller: AuthUser, id: number, client: RequestContext): Promise<{ success: true }> {
    const row = await this.stream(caller, id);
    await this.streams.manager.transaction(async (tx) => {
      // Its undelivered events go with it (the foreign key cascades).
      await tx.getRepository(IntegrationDelivery).delete({ streamId: id });
      const deleted = await tx.getRepository(LogStream).delete({ id });
      if (!deleted.affected) throw AppException.notFound(INTEGRATION_MESSAGES.STREAM_NOT_FOUND);
      await this.audit.record(tx, {
        type: 'LOG_STREAM_REMOVED',
        actor: caller,
        organisationId: row.organisationId ?? caller.organisationId,
        client,
        summary: `Audit log stream (${row.type}) to ${auditedUrl(row.url)} removed`,
      });
    });
    return { success: true };
  }

  /** Sends one sample event now, in the stream's format, and answers how the receiver took it. */
  async test(caller: AuthUser, id: number): Promise<LogStreamTestResult> {
    const row = await this.stream(caller, id);
    const sample: AuditEventItem = {
      id: 0,
      occurredAt: new Date().toISOString(),
      type: 'LOG_STREAM_CREATED',
      actorKind: 'user',
      actorId: caller.id,
      actorEmail: caller.email,
      actorOrganisationId: caller.organisationId,
      targetId: null,
      targetEmail: null,
      targetOrganisationId: null,
      organisationId: row.organisationId,
      ip: null,
      userAgent: null,
      summary: `Test event: ${AUDIT_EVENT_TYPES.LOG_STREAM_CREATED} (this is not a real event)`,
      changes: null,
      onBehalfOfId: null,
      onBehalfOfEmail: null,
      supportAccessId: null,
    };
    const request = logStreamRequest(row.type, decrypt(row.tokenSealed, this.config.encryptionKey), [sample]);
    const outcome = await postOnce(this.fetch, row.url, request.headers, request.body);
    return { success: outcome.ok, statusCode: outcome.statusCode, error: outcome.error };
  }
}

function toItem(s: LogStream): LogStreamItem {
  return {
    id: s.id,
    type: s.type,
    url: s.url,
    organisationId: s.organisationId,
    createdAt: new Date(s.createdAt).toISOString(),
    lastDeliveredAt: s.lastDeliveredAt ? new Date(s.lastDeliveredAt).toISOString() : null,
    lastError: s.lastError,
  };
}
