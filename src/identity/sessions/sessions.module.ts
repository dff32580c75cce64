import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RefreshToken } from '../credentials/entities/refresh-token.entity';
import { TrustedDevice } from '../trusted-devices';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { SessionsController } from './sessions.controller';
import { Session } from './entities/session.entity';
import { OrganisationSessions } from './organisation-sessions.service';
import { SessionsService } from './sessions.service';
import { SessionLifetimeService } from './session-lifetime.service';
import { CredentialsModule } from '../credentials/credentials.module';
import { AuditModule } from '../../platform/audit';

@Module({
  imports: [
    AuditModule,
    CredentialsModule,
    TypeOrmModule.forFeature([Session, RefreshToken, Organisation, TrustedDevice]),
  ],
  controllers: [SessionsController],
  providers: [SessionsService, OrganisationSessions, SessionLifetimeService],
  exports: [SessionsService, SessionLifetimeService],
})
export class SessionsModule {}
