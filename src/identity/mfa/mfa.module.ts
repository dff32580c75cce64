import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { User } from '../../platform/database/entities/user.entity';
import { UsersModule } from '../users';
import { RecoveryCode } from './entities/recovery-code.entity';
import { MfaAdminController } from './mfa-admin.controller';
import { MfaAdminService } from './mfa-admin.service';
import { MfaController } from './mfa.controller';
import { MfaService } from './mfa.service';
import { RecoveryCodesController } from './recovery-codes.controller';
import { RecoveryCodesService } from './recovery-codes.service';
import { TrustedDevicesModule } from '../trusted-devices';
import { CredentialsModule } from '../credentials/credentials.module';
import { AuditModule } from '../../platform/audit';
import { SessionsModule } from '../sessions';

@Module({
  imports: [
    SessionsModule,
    AuditModule,
    CredentialsModule,
    TypeOrmModule.forFeature([User, RecoveryCode]),
    UsersModule,
    TrustedDevicesModule,
  ],
  controllers: [MfaController, MfaAdminController, RecoveryCodesController],
  providers: [MfaService, MfaAdminService, RecoveryCodesService],
  exports: [MfaService, RecoveryCodesService],
})
export class MfaModule {}
