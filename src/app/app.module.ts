import { Module } from '@nestjs/common';
import { APP_GUARD, Reflector } from '@nestjs/core';
import { RouteReflector } from '../platform/web/route-reflector';
import { EngineStateModule } from '../platform/web/engine-state';
import { StepUpGuard } from '../identity/step-up/step-up.guard';
import { ServeStaticModule } from '@nestjs/serve-static';
import type { Response } from 'express';
import { ThrottlerModule } from '@nestjs/throttler';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { join } from 'node:path';
import { AuditModule } from '../platform/audit/audit.module';
import { AuthModule } from '../identity/auth/auth.module';
import { BackupModule } from '../platform/backup/backup.module';
import { BillingModule } from '../administration/billing/billing.module';
import { LogoModule } from '../administration/logo/logo.module';
import { CredentialsModule } from '../identity/credentials/credentials.module';
import { JwtAuthGuard } from '../identity/access/jwt-auth.guard';
import { RolesGuard } from '../identity/access/roles.guard';
import { ChallengeGuard } from '../identity/access/challenge.guard';
import { AccountThrottlerGuard } from '../platform/web/throttling/account-throttler.guard';
import { rateLimitOptions } from '../platform/web/throttling/rate-limits';
import { ServiceApiKeyGuard } from '../identity/access/service-api-key.guard';
import { ScimTokenGuard } from '../identity/access/scim-token.guard';
import { APP_CONFIG, AppConfigModule } from '../platform/config/app-config.module';
import { AppConfig } from '../platform/config/env.validation';
import { FilesModule } from '../platform/files/files.module';
import { RedisConnection, RedisModule } from '../platform/redis/redis.module';
import { RedisThrottlerStorage } from '../platform/redis/redis-throttler.storage';
import { MemoryThrottlerStorage } from '../platform/web/throttling/memory-throttler.storage';
import { DatabaseModule } from '../platform/database/database.module';
import { AppInfoController } from '../portal/app-info/app-info.controller';
import { HealthModule } from '../platform/health/health.module';
import { LifecycleModule } from '../platform/shutdown/shutdown-state';
import { LoggingModule } from '../platform/logging/logging.module';
import { MetricsModule } from '../platform/metrics/metrics.module';
import { HASHED_ASSETS_PREFIX, IMMUTABLE } from '../platform/static/client-assets.middleware';
import { MailModule } from '../platform/mail/mail.module';
import { MfaModule } from '../identity/mfa/mfa.module';
import { PasskeysModule } from '../identity/passkeys/passkeys.module';
import { OrganisationsModule } from '../administration/organisations/organisations.module';
import { SessionsModule } from '../identity/sessions/sessions.module';
import { InsightsModule } from '../administration/insights/insights.module';
import { MySecurityModule } from '../portal/my-security/my-security.module';
import { UsersModule } from '../identity/users/users.module';
import { UserGroupsModule } from '../identity/user-groups/user-groups.module';
import { DomainsModule } from '../identity/domains/domains.module';
import { SecurityPolicyModule } from '../administration/security-policy/security-policy.module';
import { SupportAccessModule } from '../portal/support-access/support-access.module';
import { NotificationsModule } from '../portal/notifications/notifications.module';
import { AnnouncementsModule } from '../portal/announcements/announcements.module';
import { FeedbackModule } from '../portal/feedback/feedback.module';
import { ContactModule } from '../portal/contact/contact.module';
import { SystemInfoModule } from '../portal/system-info/system-info.module';
import { FederationModule } from '../identity/federation/federation.module';
import { StepUpModule } from '../identity/step-up/step-up.module';
import { InvitationsModule } from '../administration/invitations/invitations.module';
import { ScimModule } from '../identity/scim/scim.module';
import { ApiKeysModule } from '../administration/integrations/api-keys/api-keys.module';
import { OidcProviderModule } from '../identity/oidc-provider';
import { IntegrationsModule } from '../administration/integrations/integrations.module';
import { PrivacyModule } from '../administration/privacy';
import { WiringModule } from '../platform/wiring';

/** Paths the server answers itself; everything else falls back to the client's index.html. */
export const SERVER_PATHS = [
  '/api/{*any}',
  '/auth/{*any}',
  '/mfa/{*any}',
  '/refresh',
  '/callback',
  '/socket.io/{*any}',
  '/files/{*any}',
  '/scim/{*any}',
  '/oidc/{*any}',
  '/.well-known/{*any}',
];

export const CLIENT_DIST = join(__dirname, '..', '..', 'client', 'dist');
const HASHED_ASSETS_DIR = join(CLIENT_DIST, HASHED_ASSETS_PREFIX);

@Module({
  imports: [
    AppConfigModule,
    // The ports between features: each required one filled with its one implementation at start.
    WiringModule,
    LifecycleModule,
    // The application's events: a feature publishes through platform/events, one that reacts declares @OnEvent.
    // Global, so it starts before the features and their handlers are registered before any feature's start hook.
    EventEmitterModule.forRoot(),
    LoggingModule,
    MetricsModule,
    HealthModule,
    DatabaseModule,
    EngineStateModule,
    FilesModule,
    RedisModule,
    MailModule,
    CredentialsModule,
    AuditModule,
    SessionsModule,
    InsightsModule,
    MySecurityModule,
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG, RedisConnection],
      // Counted in Redis when several instances run (REDIS_URL), in the process otherwise: one fixed window per key.
      useFactory: (config: AppConfig, redis: RedisConnection) => ({
        ...rateLimitOptions(config.rateLimitScale),
        storage: redis.client ? new RedisThrottlerStorage(redis.client, redis.engines) : new MemoryThrottlerStorage(),
      }),
    }),
    // index.html and the unhashed files are revalidated on every load; hashed assets are ClientAssets'.
    ServeStaticModule.forRoot({
      rootPath: CLIENT_DIST,
      exclude: SERVER_PATHS,
      serveStaticOptions: {
        index: false,
        setHeaders: (res: Response, path: string) =>
          res.setHeader('Cache-Control', path.startsWith(HASHED_ASSETS_DIR) ? IMMUTABLE : 'no-cache'),
      },
    }),
    AuthModule,
    StepUpModule,
    MfaModule,
    PasskeysModule,
    UsersModule,
    UserGroupsModule,
    DomainsModule,
    SecurityPolicyModule,
    SupportAccessModule,
    OrganisationsModule,
    BillingModule,
    LogoModule,
    NotificationsModule,
    AnnouncementsModule,
    FeedbackModule,
    ContactModule,
    SystemInfoModule,
    FederationModule,
    InvitationsModule,
    BackupModule,
    ScimModule,
    ApiKeysModule,
    OidcProviderModule,
    IntegrationsModule,
    PrivacyModule,
  ],
  controllers: [AppInfoController],
  providers: [
    // The global guards' metadata lookups, remembered per route (RouteReflector).
    { provide: Reflector, useClass: RouteReflector },
    { provide: APP_GUARD, useClass: ServiceApiKeyGuard },
    { provide: APP_GUARD, useClass: ScimTokenGuard },
    { provide: APP_GUARD, useClass: JwtAuthGuard },
    // After the JWT guard: signed-in calls are counted per account, anonymous ones per address.
    { provide: APP_GUARD, useClass: AccountThrottlerGuard },
    { provide: APP_GUARD, useClass: RolesGuard },
    // After the rate limiter: every guess at a sign-in challenge counts.
    { provide: APP_GUARD, useClass: ChallengeGuard },
    // After the role check: a caller who may not call a route at all hears that, not a request to step up.
    { provide: APP_GUARD, useClass: StepUpGuard },
  ],
})
export class AppModule {}
