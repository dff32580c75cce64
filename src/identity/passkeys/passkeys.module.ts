import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TrustedDevicesModule } from '../trusted-devices';
import { User } from '../../platform/database/entities/user.entity';
import { Passkey } from './passkey.entity';
import { PasskeyLoginController, PasskeysController } from './passkeys.controller';
import { PasskeysService } from './passkeys.service';
import { WebAuthnChallenge } from './webauthn-challenge.entity';
import { CredentialsModule } from '../credentials/credentials.module';
import { AuditModule } from '../../platform/audit';
import { SessionsModule } from '../sessions';

/** Passkeys: registration and management under /mfa/passkeys, options for sign-in under /auth/passkey. */
@Module({
  imports: [
    SessionsModule,
    AuditModule,
    CredentialsModule,
    TypeOrmModule.forFeature([Passkey, WebAuthnChallenge, User]),
    TrustedDevicesModule,
  ],
  controllers: [PasskeysController, PasskeyLoginController],
  providers: [PasskeysService],
  exports: [PasskeysService],
})
export class PasskeysModule {}
