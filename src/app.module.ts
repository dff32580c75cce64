import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ServeStaticModule } from '@nestjs/serve-static';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import { join } from 'node:path';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { BillingModule } from './billing/billing.module';
import { LogoModule } from './logo/logo.module';
import { TokenModule } from './auth/token.module';
import { JwtAuthGuard } from './common/guards/jwt-auth.guard';
import { RolesGuard } from './common/guards/roles.guard';
import { ServiceApiKeyGuard } from './common/guards/service-api-key.guard';
import { RequestLoggerMiddleware } from './common/middleware/request-logger.middleware';
import { AppConfigModule } from './config/app-config.module';
import { FilesModule } from './files/files.module';
import { RedisConnection, RedisModule } from './redis/redis.module';
import { RedisThrottlerStorage } from './redis/redis-throttler.storage';
import { DatabaseModule } from './database/database.module';
import { AppInfoController } from './app-info/app-info.controller';
import { HealthController } from './health/health.controller';
import { MailModule } from './mail/mail.module';
import { MfaModule } from './mfa/mfa.module';
import { OrganisationsModule } from './organisations/organisations.module';
import { SessionsModule } from './sessions/sessions.module';
import { UsersModule } from './users/users.module';
import { UserGroupsModule } from './user-groups/user-groups.module';
import { NotificationsModule } from './notifications/notifications.module';
import { AnnouncementsModule } from './announcements/announcements.module';
import { FeedbackModule } from './feedback/feedback.module';
import { ContactModule } from './contact/contact.module';
import { SystemInfoModule } from './system-info/system-info.module';

/** Paths the server answers itself; everything else falls back to the client's index.html. */
export const SERVER_PATHS = ['/api/{*any}', '/auth/{*any}', '/mfa/{*any}', '/refresh', '/callback', '/socket.io/{*any}', '/files/{*any}'];

export const CLIENT_DIST = join(__dirname, '..', 'client', 'dist');

@Module({
  imports: [
    AppConfigModule,
    DatabaseModule,
    FilesModule,
    RedisModule,
    MailModule,
    TokenModule,
    AuditModule,
    SessionsModule,
    ThrottlerModule.forRootAsync({
      inject: [RedisConnection],
      // Counted in Redis when several instances run (REDIS_URL), in the process otherwise.
      useFactory: (redis: RedisConnection) => ({
        throttlers: [{ name: 'default', ttl: 60_000, limit: 1000 }],
        storage: redis.client ? new RedisThrottlerStorage(redis.client) : undefined,
      }),
    }),
    ServeStaticModule.forRoot({ rootPath: CLIENT_DIST, exclude: SERVER_PATHS, serveStaticOptions: { index: false, maxAge: '1h' } }),
    AuthModule,
    MfaModule,
    UsersModule,
    UserGroupsModule,
    OrganisationsModule,
    BillingModule,
    LogoModule,
    NotificationsModule,
    AnnouncementsModule,
    FeedbackModule,
    ContactModule,
    SystemInfoModule,
  ],
  controllers: [HealthController, AppInfoController],
  providers: [
    { provide: APP_GUARD, useClass: ThrottlerGuard },
    { provide: APP_GUARD, useClass: ServiceApiKeyGuard },
    { provide: APP_GUARD, useClass: JwtAuthGuard },
    { provide: APP_GUARD, useClass: RolesGuard },
  ],
})
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestLoggerMiddleware).forRoutes('*');
  }
}
