import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RefreshToken } from '../auth/entities/refresh-token.entity';
import { TrustedDevice } from '../mfa/entities/trusted-device.entity';
import { Organisation } from '../organisations/entities/organisation.entity';
import { UsersModule } from '../users/users.module';
import { SessionsController } from './sessions.controller';
import { Session } from './entities/session.entity';
import { SessionAuthService } from './session-auth.service';
import { SessionEvents } from './session-events';
import { SessionsService } from './sessions.service';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Session, RefreshToken, Organisation, TrustedDevice]), UsersModule],
  controllers: [SessionsController],
  providers: [SessionsService, SessionEvents, SessionAuthService],
  exports: [SessionsService, SessionEvents, SessionAuthService],
})
export class SessionsModule {}
