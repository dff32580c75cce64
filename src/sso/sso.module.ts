import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { Organisation } from '../database/entities/organisation.entity';
import { Session } from '../sessions/entities/session.entity';
import { User } from '../database/entities/user.entity';
import { UsersModule } from '../users/users.module';
import { SsoConnection } from './entities/sso-connection.entity';
import { SsoIdentity } from './entities/sso-identity.entity';
import { SsoOneTimeValue } from './entities/sso-one-time.entity';
import { SsoSession } from './entities/sso-session.entity';
import { SsoTestResultRow } from './entities/sso-test-result.entity';
import { SsoConnectionTestService } from './sso-connection-test.service';
import { FederatedSignInService } from './federated-sign-in.service';
import { OidcConnector } from './oidc-connector';
import { OneTimeValues } from './one-time-values';
import { SamlConnector } from './saml-connector';
import { SsoConnectionsController } from './sso-connections.controller';
import { SsoConnectionsService } from './sso-connections.service';
import { SsoFlowController } from './sso-flow.controller';
import { SsoFlowService } from './sso-flow.service';
import { SsoDiscoveryService } from './sso-discovery.service';
import { RoundTripEnds } from './round-trip-ends';
import { RoundTripState } from './round-trip-state';
import { SsoLogoutService } from './sso-logout.service';
import { BackChannelLogoutService } from './back-channel-logout.service';
import { SsoStepUpController } from './sso-step-up.controller';
import { DomainsModule } from '../domains/domains.module';
import { CredentialsModule } from '../credentials/credentials.module';
import { AuditModule } from '../audit/audit.module';
import { SessionsModule } from '../sessions/sessions.module';

/** Each organisation's own identity providers (docs/product-rules.md §6): connections, sign-in through them, single logout. */
@Module({
  imports: [
    SessionsModule,
    AuditModule,
    CredentialsModule,
    TypeOrmModule.forFeature([
      SsoConnection,
      SsoIdentity,
      SsoSession,
      SsoOneTimeValue,
      SsoTestResultRow,
      Organisation,
      User,
      Session,
    ]),
    AuthModule,
    UsersModule,
    DomainsModule,
  ],
  controllers: [SsoConnectionsController, SsoFlowController, SsoStepUpController],
  providers: [
    SsoConnectionsService,
    SsoFlowService,
    SsoDiscoveryService,
    RoundTripState,
    RoundTripEnds,
    FederatedSignInService,
    SsoLogoutService,
    BackChannelLogoutService,
    OidcConnector,
    SamlConnector,
    OneTimeValues,
    SsoConnectionTestService,
  ],
  exports: [FederatedSignInService, SsoDiscoveryService],
})
export class SsoModule {}
