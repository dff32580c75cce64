import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RefreshToken } from '../auth/entities/refresh-token.entity';
import { Organisation } from '../organisations/entities/organisation.entity';
import { Session } from './entities/session.entity';
import { SessionEvents } from './session-events';
import { SessionsService } from './sessions.service';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Session, RefreshToken, Organisation])],
  providers: [SessionsService, SessionEvents],
  exports: [SessionsService, SessionEvents],
})
export class SessionsModule {}
