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
import { SupportAccessService } from './support-access.service';

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
  providers: [SupportAccessService],
})
export class SupportAccessModule {}
