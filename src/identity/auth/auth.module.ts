import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MfaModule } from '../mfa';
import { PasskeysModule } from '../passkeys';
import { TrustedDevicesModule } from '../trusted-devices';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { User } from '../../platform/database/entities/user.entity';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { SignedInSessionService } from './signed-in-session.service';
import { OrganisationSignInRules } from './sign-in/organisation-sign-in-rules';
import { SignInAttempts } from './sign-in/sign-in-attempts';
import { SecondFactorStep } from './sign-in/second-factor.step';
import { PasswordChangeService } from './passwords/password-change.service';
import { ForgotPasswordService } from './passwords/forgot-password.service';
import { ResetPasswordService } from './passwords/reset-password.service';
import { LocalAuthGuard, LocalStrategy } from './local.strategy';
import { PasswordResetToken } from './entities/password-reset-token.entity';
import { DataSource } from 'typeorm';
import { KNOWN_ADDRESSES, LoginThrottleService } from './login-throttle.service';
import { SessionAddresses } from './sign-in/session-addresses';
import { THROTTLE_STORE } from '../../platform/web/throttling/throttle-store';
import { DatabaseThrottleStore } from '../../platform/web/throttling/database-throttle-store';
import { Session, SessionsModule } from '../sessions';
import { CredentialsModule } from '../credentials/credentials.module';
import { AuditModule } from '../../platform/audit';

@Module({
  imports: [
    SessionsModule,
    AuditModule,
    CredentialsModule,
    TypeOrmModule.forFeature([User, PasswordResetToken, Organisation, Session]),
    MfaModule,
    PasskeysModule,
    TrustedDevicesModule,
  ],
  controllers: [AuthController],
  providers: [
    AuthService,
    SignedInSessionService,
    OrganisationSignInRules,
    SignInAttempts,
    SecondFactorStep,
    PasswordChangeService,
    ForgotPasswordService,
    ResetPasswordService,
    LocalStrategy,
    LocalAuthGuard,
    LoginThrottleService,
    {
      provide: THROTTLE_STORE,
      // In the database, with or without Redis: docs/decisions/sign-in-locks.md.
      inject: [DataSource],
      useFactory: (db: DataSource) => new DatabaseThrottleStore(db),
    },
    { provide: KNOWN_ADDRESSES, useClass: SessionAddresses },
  ],
  exports: [AuthService, LoginThrottleService, ForgotPasswordService],
})
export class AuthModule {}
