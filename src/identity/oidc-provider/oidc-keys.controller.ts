import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { Client, RequestContext } from '../../platform/web/request-context';
import { Answers } from '../../platform/openapi/decorators';
import { RotatedOidcSigningKey } from '../../shared/identity/oidc-clients';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { OidcKeysService } from './oidc-keys.service';
import { OidcProviderService } from './oidc-provider.service';

/** Access: E-Support only, sensitive (step-up); audited. */
@ApiTags('openid provider')
@Controller('api/oidc/keys')
export class OidcKeysController {
  constructor(
    private readonly keys: OidcKeysService,
    private readonly provider: OidcProviderService,
    private readonly audit: AuditService,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  /** A new signing key signs from now on; the previous ones stay in the JWKS until their tokens have expired. */
  @Post('rotate')
  @HttpCode(200)
  @Access({ roles: CAPABILITY_ROLES.SUPPORT, stepUp: true })
  @Answers(200, 'RotatedOidcSigningKey')
  async rotate(@CurrentUser() caller: AuthUser, @Client() client: RequestContext): Promise<RotatedOidcSigningKey> {
    const { kid, publishedKids } = await this.keys.rotate();
    await this.provider.build();
    await this.audit.record(this.db.manager, {
      type: 'OIDC_SIGNING_KEY_ROTATED',
      actor: caller,
      organisationId: caller.organisationId,
      client,
      summary: `Token signing key rotated (new key ${kid})`,
    });
    return { kid, alg: 'ES256', publishedKids };
  }
}
