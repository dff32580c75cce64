import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../../platform/audit';
import { AuthModule } from '../../identity/auth';
import { CredentialsModule } from '../../identity/credentials/credentials.module';
import { FederationModule } from '../../identity/federation';
import { UsersModule } from '../../identity/users';
import { BulkBodyMiddleware } from './bulk-body.middleware';
import { Invitation } from './entities/invitation.entity';
import { InvitationsController } from './invitations.controller';
import { InvitationsService } from './invitations.service';
import { InvitationAcceptanceService } from './invitation-acceptance.service';
import { InvitationStore } from './invitation-store';

/** Invitations: invite by e-mail with a role chosen up front; the person accepts through a single-use link. */
@Module({
  imports: [
    TypeOrmModule.forFeature([Invitation]),
    AuditModule,
    AuthModule,
    CredentialsModule,
    FederationModule,
    UsersModule,
  ],
  controllers: [InvitationsController],
  providers: [InvitationStore, InvitationsService, InvitationAcceptanceService],
})
export class InvitationsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(BulkBodyMiddleware).forRoutes({ path: 'api/invitations/bulk', method: RequestMethod.POST });
  }
}
