import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RefreshToken } from '../credentials/entities/refresh-token.entity';
import { TrustedDevice } from '../trusted-devices/entities/trusted-device.entity';
import { Organisation } from '../organisations/entities/organisation.entity';
import { SessionsController } from './sessions.controller';
import { Session } from './entities/session.entity';
import { SessionEvents } from './session-events';
import { SessionsService } from './sessions.service';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Session, RefreshToken, Organisation, TrustedDevice])],
  controllers: [SessionsController],
  providers: [SessionsService, SessionEvents],
  exports: [SessionsService, SessionEvents],
})
export class SessionsModule {}
