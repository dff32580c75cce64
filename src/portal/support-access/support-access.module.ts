import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../../platform/audit';
import { CredentialsModule } from '../../identity/credentials/credentials.module';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { User } from '../../platform/database/entities/user.entity';
import { NotificationsModule } from '../notifications';
import { SessionsModule } from '../../identity/sessions';
import { SupportAccess } from './entities/support-access.entity';
import { SupportAccessController } from './support-access.controller';
import { SupportAccessEnding } from './support-access-ending.service';
import { SupportAccessMail } from './support-access-mail';
import { SupportAccessQueries } from './support-access-queries.service';
import { SupportAccessRequests } from './support-access-requests.service';
import { SupportAccessSessions } from './support-access-sessions.service';

/** Support access (/api/support-access): E-Support acting as a member, with the organisation's consent. */
@Module({
  imports: [
    AuditModule,
    CredentialsModule,
    NotificationsModule,
    SessionsModule,
    TypeOrmModule.forFeature([SupportAccess, User, Organisation]),
  ],
  controllers: [SupportAccessController],
  providers: [
    SupportAccessQueries,
    SupportAccessMail,
    SupportAccessRequests,
    SupportAccessSessions,
    SupportAccessEnding,
  ],
})
export class SupportAccessModule {}
