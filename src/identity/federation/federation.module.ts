import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { Session, SessionsModule } from '../sessions';
import { User } from '../../platform/database/entities/user.entity';
import { UsersModule } from '../users';
import { SsoConnection } from './entities/sso-connection.entity';
import { SsoIdentity } from './entities/sso-identity.entity';
import { SsoOneTimeValue } from './entities/sso-one-time.entity';
import { SsoSession } from './entities/sso-session.entity';
import { SsoTestResultRow } from './entities/sso-test-result.entity';
import { SsoConnectionTestService } from './connection-test/sso-connection-test.service';
import { FederatedSignInService } from './sign-in/federated-sign-in.service';
import { OidcConnector } from './connectors/oidc-connector';
import { OneTimeValues } from './round-trip/one-time-values';
import { SamlConnector } from './connectors/saml-connector';
import { SsoConnectionsController } from './connections/sso-connections.controller';
import { SsoConnectionsService } from './connections/sso-connections.service';
import { SsoFlowController } from './round-trip/sso-flow.controller';
import { SsoFlowService } from './round-trip/sso-flow.service';
import { RoundTripEnds } from './round-trip/round-trip-ends';
import { SsoDiscoveryService } from './discovery/sso-discovery.service';
import { RoundTripState } from './round-trip/round-trip-state';
import { SsoLogoutService } from './logout/sso-logout.service';
import { BackChannelLogoutService } from './logout/back-channel-logout.service';
import { DomainsModule } from '../domains';
import { CredentialsModule } from '../credentials/credentials.module';
import { AuditModule } from '../../platform/audit';
import { SsoController } from './round-trip/deployment-sso.controller';
import { RoundTripPurposes } from './round-trip/round-trip-purpose';
import { SignInEnd } from './sign-in/sign-in-end';
import { DeploymentWideSignIn } from './sign-in/deployment-wide-sign-in.service';
import { ConnectionTestEnd } from './connection-test/connection-test-end';

/** Every identity provider (docs/product-rules.md §3, §6): the organisations' connections and the deployment-wide one, the round trip through them, sign-in, discovery, single logout and the connection test. */
@Module({
  imports: [
    DiscoveryModule,
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
  controllers: [SsoConnectionsController, SsoController, SsoFlowController],
  providers: [
    SsoConnectionsService,
    DeploymentWideSignIn,
    RoundTripPurposes,
    SignInEnd,
    ConnectionTestEnd,
    SsoFlowService,
    RoundTripEnds,
    SsoDiscoveryService,
    RoundTripState,
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
export class FederationModule {}
