import { Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR, Reflector } from '@nestjs/core';
import { RouteReflector } from './common/route-reflector';
import { EngineStateModule } from './common/engine-state';
import { SupportSessionInterceptor } from './access/support-session.interceptor';
import { StepUpGuard } from './step-up/step-up.guard';
import { ServeStaticModule } from '@nestjs/serve-static';
import type { Response } from 'express';
import { ThrottlerModule } from '@nestjs/throttler';
import { join } from 'node:path';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { BackupModule } from './backup/backup.module';
import { BillingModule } from './billing/billing.module';
import { LogoModule } from './logo/logo.module';
import { CredentialsModule } from './credentials/credentials.module';
import { JwtAuthGuard } from './access/jwt-auth.guard';
import { RolesGuard } from './access/roles.guard';
import { ChallengeGuard } from './access/challenge.guard';
import { AccountThrottlerGuard } from './common/throttling/account-throttler.guard';
import { rateLimitOptions } from './common/throttling/rate-limits';
import { ServiceApiKeyGuard } from './access/service-api-key.guard';
import { ScimTokenGuard } from './access/scim-token.guard';
import { APP_CONFIG, AppConfigModule } from './config/app-config.module';
import { AppConfig } from './config/env.validation';
import { FilesModule } from './files/files.module';
import { RedisConnection, RedisModule } from './redis/redis.module';
import { RedisThrottlerStorage } from './redis/redis-throttler.storage';
import { MemoryThrottlerStorage } from './common/throttling/memory-throttler.storage';
import { DatabaseModule } from './database/database.module';
import { AppInfoController } from './app-info/app-info.controller';
import { HealthModule } from './health/health.module';
import { LifecycleModule } from './lifecycle/shutdown-state';
import { LoggingModule } from './logging/logging.module';
import { MetricsModule } from './metrics/metrics.module';
import { HASHED_ASSETS_PREFIX, IMMUTABLE } from './static/client-assets.middleware';
import { MailModule } from './mail/mail.module';
import { MfaModule } from './mfa/mfa.module';
import { PasskeysModule } from './passkeys/passkeys.module';
import { OrganisationsModule } from './organisations/organisations.module';
import { SessionsModule } from './sessions/sessions.module';
import { InsightsModule } from './insights/insights.module';
import { MySecurityModule } from './my-security/my-security.module';
import { UsersModule } from './users/users.module';
import { UserGroupsModule } from './user-groups/user-groups.module';
import { DomainsModule } from './domains/domains.module';
import { SecurityPolicyModule } from './security-policy/security-policy.module';
import { SupportAccessModule } from './support-access/support-access.module';
import { NotificationsModule } from './notifications/notifications.module';
import { AnnouncementsModule } from './announcements/announcements.module';
import { FeedbackModule } from './feedback/feedback.module';
import { ContactModule } from './contact/contact.module';
import { SystemInfoModule } from './system-info/system-info.module';
import { FederationModule } from './federation/federation.module';
import { StepUpModule } from './step-up/step-up.module';
import { InvitationsModule } from './invitations/invitations.module';
import { ScimModule } from './scim/scim.module';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { OidcProviderModule } from './oidc-provider';
import { IntegrationsModule } from './integrations/integrations.module';
import { PrivacyModule } from './privacy';

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

export const CLIENT_DIST = join(__dirname, '..', 'client', 'dist');
const HASHED_ASSETS_DIR = join(CLIENT_DIST, HASHED_ASSETS_PREFIX);

@Module({
  imports: [
    AppConfigModule,
    LifecycleModule,
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
    { provide: APP_INTERCEPTOR, useClass: SupportSessionInterceptor },
  ],
})
export class AppModule {}
