import { Module } from '@nestjs/common';
import { AuditModule } from '../../platform/audit';
import { AuthModule } from '../../identity/auth';
import { InsightsModule } from '../../administration/insights';
import { SessionsModule } from '../../identity/sessions';
import { MySecurityController } from './my-security.controller';
import { MySecurityService } from './my-security.service';

/** Each member's own security page: sessions, recent sign-ins, and the "This wasn't me" link. */
@Module({
  imports: [AuditModule, AuthModule, InsightsModule, SessionsModule],
  controllers: [MySecurityController],
  providers: [MySecurityService],
})
export class MySecurityModule {}
