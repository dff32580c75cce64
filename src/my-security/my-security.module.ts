import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { InsightsModule } from '../insights/insights.module';
import { SessionsModule } from '../sessions/sessions.module';
import { MySecurityController } from './my-security.controller';
import { MySecurityService } from './my-security.service';

/** Each member's own security page: sessions, recent sign-ins, and the "This wasn't me" link. */
@Module({
  imports: [AuditModule, AuthModule, InsightsModule, SessionsModule],
  controllers: [MySecurityController],
  providers: [MySecurityService],
})
export class MySecurityModule {}
