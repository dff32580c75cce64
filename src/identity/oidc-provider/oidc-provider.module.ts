import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../../platform/audit';
import { CredentialsModule } from '../credentials/credentials.module';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { SessionsModule } from '../sessions';
import { OidcClient } from './entities/oidc-client.entity';
import { OidcConsent } from './entities/oidc-consent.entity';
import { OidcRecord } from './entities/oidc-record.entity';
import { OidcSessionLink } from './entities/oidc-session-link.entity';
import { OidcSigningKey } from './entities/oidc-signing-key.entity';
import { MyAppsController } from './my-apps.controller';
import { MyAppsService } from './my-apps.service';
import { OidcClientsController } from './oidc-clients.controller';
import { OidcClientsService } from './oidc-clients.service';
import { OidcInteractions } from './oidc-interactions';
import { OidcKeysController } from './oidc-keys.controller';
import { OidcKeysService } from './oidc-keys.service';
import { OidcLogoutService } from './oidc-logout.service';
import { OidcProviderService } from './oidc-provider.service';
import { OidcPortalBridge } from './library/portal-bridge';
import { PortalSessionReader } from './portal-session';

/**
 * The portal as the suite's OpenID provider (docs/oidc-provider.md): oidc-provider mounted under /oidc/ with the
 * product's storage and keys, the sign-in bridge to the portal's own session, the registered applications, each
 * member's applications, and logout that reaches the applications.
 */
@Module({
  imports: [
    AuditModule,
    CredentialsModule,
    SessionsModule,
    TypeOrmModule.forFeature([OidcClient, OidcConsent, OidcRecord, OidcSessionLink, OidcSigningKey, Organisation]),
  ],
  controllers: [OidcClientsController, MyAppsController, OidcKeysController],
  providers: [
    OidcKeysService,
    PortalSessionReader,
    OidcPortalBridge,
    OidcProviderService,
    OidcInteractions,
    OidcLogoutService,
    OidcClientsService,
    MyAppsService,
  ],
  exports: [OidcProviderService],
})
export class OidcProviderModule {}
