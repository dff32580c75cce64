import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../../platform/audit';
import { AuthModule } from '../../identity/auth';
import { SessionsModule } from '../../identity/sessions';
import { MySecurityController } from './my-security.controller';
import { MySecurityService } from './my-security.service';
import { KnownBrowser } from './entities/known-browser.entity';
import { NotMeLink } from './entities/not-me-link.entity';
import { SignInHistory } from './entities/sign-in-history.entity';
import { SignInRecorder } from './sign-in-recorder.service';

/**
 * Each member's own security page: sessions, recent sign-ins, and the "This wasn't me" link; the sign-in history,
 * the browsers each account has used and the new-browser e-mail are kept here as sign-ins are audited.
 */
@Module({
  imports: [
    AuditModule,
    AuthModule,
    SessionsModule,
    TypeOrmModule.forFeature([SignInHistory, KnownBrowser, NotMeLink]),
  ],
  controllers: [MySecurityController],
  providers: [SignInRecorder, MySecurityService],
})
export class MySecurityModule {}
