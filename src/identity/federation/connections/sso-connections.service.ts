import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AuditChanges, AuditService } from '../../../platform/audit';
import { AppException } from '../../../platform/web/app.exception';
import { AuthUser, canAccessOrganisation } from '../../../platform/web/auth-user';
import { encrypt } from '../../../platform/crypto/secrets';
import { RequestContext } from '../../../platform/web/request-context';
import { APP_CONFIG } from '../../../platform/config/app-config.module';
import { AppConfig } from '../../../platform/config/env.validation';
import { lockRow } from '../../../platform/database/locks';
import { Organisation } from '../../../platform/database/entities/organisation.entity';
import { ERROR_CODES } from '../../../shared/messages';
import { SSO_LIMITS, SSO_MESSAGES, SsoConnectionItem } from '../../../shared/identity/sso';
import { CreateSsoConnectionDto, UpdateSsoConnectionDto } from './dto/sso-connection.dto';
import { SsoConnection } from '../entities/sso-connection.entity';
import { parseIdpMetadata } from '../connectors/saml-metadata';
import { ssoUrls } from '../round-trip/sso-urls';

const OIDC_FIELDS = ['issuer', 'clientId', 'clientSecret'] as const;
const SAML_FIELDS = ['metadataXml'] as const;

/**
 * An organisation's identity provider connections (docs/product-rules.md §6): its site admins manage them, E-Support any
 * organisation's, administrators read them. Another organisation's connection is a 404, as a missing one.
 */
@Injectable()
export class SsoConnectionsService {
  constructor(
    @InjectRepository(SsoConnection) private readonly connections: Repository<SsoConnection>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly audit: AuditService,
  ) {}

  toItem(c: SsoConnection): SsoConnectionItem {
    const urls = ssoUrls(this.config.publicUrl, c.id);
    const common = {
      id: c.id,
      organisationId: c.organisationId,
      name: c.name,
      protocol: c.protocol,
      enabled: c.enabled,
      jitProvisioning: c.jitProvisioning,
      defaultRoleId: c.defaultRoleId ?? null,
      loginUrl: urls.login,
      createdAt: new Date(c.createdAt).toISOString(),
      updatedAt: new Date(c.updatedAt).toISOString(),
    };
    if (c.protocol === 'oidc')
      return {
        ...common,
        issuer: c.oidcIssuer ?? '',
        clientId: c.oidcClientId ?? '',
        hasClientSecret: !!c.oidcClientSecret,
        redirectUri: urls.oidcRedirect,
      };
    return {
      ...common,
      idpEntityId: c.samlEntityId ?? '',
      idpSsoUrl: c.samlSsoUrl ?? '',
      idpSloUrl: c.samlSloUrl,
      spEntityId: urls.spEntityId,
      spMetadataUrl: urls.spMetadata,
      acsUrl: urls.acs,
    };
  }

  /** The organisation worked on: the caller's own, or (E-Support only) the one asked for. */
  private async organisationId(caller: AuthUser, asked?: number): Promise<number> {
    const id = asked ?? caller.organisationId;
    if (!canAccessOrganisation(caller, id) || !(await this.organisations.existsBy({ id })))
      throw AppException.notFound('Organisation not found.');
    return id;
  }

  /** A connection of an organisation the caller may work on; any other answers 404. */
  async accessible(caller: AuthUser, id: number): Promise<SsoConnection> {
    const c = await this.connections.findOneBy({ id });
    if (!c || !canAccessOrganisation(caller, c.organisationId)) throw AppException.notFound(SSO_MESSAGES.NOT_FOUND);
    return c;
  }

  async list(caller: AuthUser, organisationId?: number): Promise<SsoConnectionItem[]> {
    const org = await this.organisationId(caller, organisationId);
    const rows = await this.connections.find({ where: { organisationId: org }, order: { id: 'ASC' } });
    return rows.map((c) => this.toItem(c));
  }

  private checkIssuer(issuer: string): string {
    let url: URL;
    try {
      url = new URL(issuer);
    } catch {
      throw AppException.badRequest(SSO_MESSAGES.ISSUER_INVALID);
    }
    const allowed = this.config.ssoAllowPrivateNetworks ? ['https:', 'http:'] : ['https:'];
    if (!allowed.includes(url.protocol) || url.username || url.password || url.hash)
      throw AppException.badRequest(SSO_MESSAGES.ISSUER_INVALID);
    // Kept as typed but without a final slash: the ID token's `iss` must equal the discovered issuer exactly.
    return issuer.replace(/\/+$/, '') || issuer;
  }

  /** The fields of `dto` applied to `c`, checked against its protocol. */
  private apply(c: SsoConnection, dto: UpdateSsoConnectionDto): void {
    const foreign = c.protocol === 'oidc' ? SAML_FIELDS : OIDC_FIELDS;
    if (foreign.some((f) => dto[f] !== undefined)) throw AppException.badRequest(SSO_MESSAGES.FIELDS_OF_OTHER_PROTOCOL);
    if (dto.name !== undefined) c.name = dto.name.trim();
    if (dto.enabled !== undefined) c.enabled = dto.enabled;
    if (dto.jitProvisioning !== undefined) c.jitProvisioning = dto.jitProvisioning;
    if (dto.defaultRoleId !== undefined) c.defaultRoleId = dto.defaultRoleId;
    if (dto.issuer !== undefined) c.oidcIssuer = this.checkIssuer(dto.issuer.trim());
    if (dto.clientId !== undefined) c.oidcClientId = dto.clientId.trim();
    if (dto.clientSecret !== undefined) c.oidcClientSecret = encrypt(dto.clientSecret, this.config.encryptionKey);
    if (dto.metadataXml !== undefined) {
      const idp = parseIdpMetadata(dto.metadataXml);
      if (!idp) throw AppException.badRequest(SSO_MESSAGES.METADATA_INVALID);
      c.samlMetadataXml = dto.metadataXml;
      c.samlEntityId = idp.entityId;
      c.samlSsoUrl = idp.ssoUrl;
      c.samlSloUrl = idp.sloUrl;
      c.samlCertificates = idp.certificates;
    }
    if (!c.name) throw AppException.badRequest('Enter a name.');
  }

  async create(
    caller: AuthUser,
    dto: CreateSsoConnectionDto,
    organisationId: number | undefined,
    client: RequestContext,
  ): Promise<SsoConnectionItem> {
    const orgId = await this.organisationId(caller, organisationId);
    const c = this.connections.create({
      organisationId: orgId,
      protocol: dto.protocol,
      enabled: true,
      jitProvisioning: false,
      defaultRoleId: null,
      oidcIssuer: null,
      oidcClientId: null,
      oidcClientSecret: null,
      samlMetadataXml: null,
      samlEntityId: null,
      samlSsoUrl: null,
      samlSloUrl: null,
      samlCertificates: null,
    });
    this.apply(c, dto);
    if (c.protocol === 'oidc') {
      if (!c.oidcIssuer) throw AppException.badRequest('Enter the issuer URL.');
      if (!c.oidcClientId) throw AppException.badRequest('Enter the client id.');
      if (!c.oidcClientSecret) throw AppException.badRequest(SSO_MESSAGES.SECRET_REQUIRED);
    } else if (!c.samlMetadataXml) throw AppException.badRequest('Paste the metadata XML.');
    const saved = await this.connections.manager.transaction(async (tx) => {
      // The organisation's row lock: parallel additions queue, so the per-organisation cap holds.
      await lockRow(tx, Organisation, orgId);
      if ((await tx.getRepository(SsoConnection).countBy({ organisationId: orgId })) >= SSO_LIMITS.PER_ORGANISATION)
        throw AppException.conflict(SSO_MESSAGES.TOO_MANY, ERROR_CODES.CONFLICT);
      const row = await tx.getRepository(SsoConnection).save(c);
      await this.audit.record(tx, {
        type: 'SSO_CONNECTION_CREATED',
        actor: caller,
        organisationId: orgId,
        client,
        summary: `${row.protocol.toUpperCase()} connection '${row.name}' added`,
        changes: describe(null, row),
      });
      return row;
    });
    return this.toItem(saved);
  }

  async update(
    caller: AuthUser,
    id: number,
    dto: UpdateSsoConnectionDto,
    client: RequestContext,
  ): Promise<SsoConnectionItem> {
    const saved = await this.connections.manager.transaction(async (tx) => {
      const current = await lockRow(tx, SsoConnection, id);
      if (!current || !canAccessOrganisation(caller, current.organisationId))
        throw AppException.notFound(SSO_MESSAGES.NOT_FOUND);
      const before = { ...current };
      this.apply(current, dto);
      const row = await tx.getRepository(SsoConnection).save(current);
      await this.audit.record(tx, {
        type: 'SSO_CONNECTION_CHANGED',
        actor: caller,
        organisationId: row.organisationId,
        client,
        summary: `${row.protocol.toUpperCase()} connection '${row.name}' changed`,
        changes: describe(before, row),
      });
      return row;
    });
    return this.toItem(saved);
  }

  async remove(caller: AuthUser, id: number, client: RequestContext): Promise<{ success: true }> {
    const c = await this.accessible(caller, id);
    await this.connections.manager.transaction(async (tx) => {
      await tx.getRepository(SsoConnection).delete({ id: c.id });
      await this.audit.record(tx, {
        type: 'SSO_CONNECTION_REMOVED',
        actor: caller,
        organisationId: c.organisationId,
        client,
        summary: `${c.protocol.toUpperCase()} connection '${c.name}' removed`,
      });
    });
    return { success: true };
  }
}

/** The audit trail's before → after of a connection; a secret shows only as changed. */
function describe(before: SsoConnection | null, after: SsoConnection): AuditChanges {
  const fields: Array<[string, (c: SsoConnection) => unknown]> = [
    ['name', (c) => c.name],
    ['enabled', (c) => c.enabled],
    ['jitProvisioning', (c) => c.jitProvisioning],
    ['defaultRoleId', (c) => c.defaultRoleId],
    ['issuer', (c) => c.oidcIssuer],
    ['clientId', (c) => c.oidcClientId],
    ['idpEntityId', (c) => c.samlEntityId],
    ['idpSsoUrl', (c) => c.samlSsoUrl],
    ['idpSloUrl', (c) => c.samlSloUrl],
  ];
  const changes: AuditChanges = {};
  for (const [name, read] of fields) {
    const from = before ? read(before) : null;
    const to = read(after);
    if (from !== to && !(before === null && to === null)) changes[name] = { from, to };
  }
  if (before?.oidcClientSecret !== after.oidcClientSecret && after.oidcClientSecret)
    changes.clientCredential = { from: before ? 'stored' : null, to: 'replaced' };
  if (before && before.samlCertificates?.join() !== after.samlCertificates?.join())
    changes.idpCertificates = { from: before.samlCertificates?.length ?? 0, to: after.samlCertificates?.length ?? 0 };
  return changes;
}
