import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { User } from '../users/entities/user.entity';
import { UsersModule } from '../users/users.module';
import { RecoveryCode } from './entities/recovery-code.entity';
import { TrustedDevice } from './entities/trusted-device.entity';
import { MfaAdminController } from './mfa-admin.controller';
import { MfaAdminService } from './mfa-admin.service';
import { MfaController } from './mfa.controller';
import { MfaService } from './mfa.service';
import { RecoveryCodesController } from './recovery-codes.controller';
import { RecoveryCodesService } from './recovery-codes.service';
import { TrustedDevicesController } from './trusted-devices.controller';
import { TrustedDevicesService } from './trusted-devices.service';

@Module({
  imports: [TypeOrmModule.forFeature([User, RecoveryCode, TrustedDevice]), UsersModule],
  controllers: [MfaController, MfaAdminController, RecoveryCodesController, TrustedDevicesController],
  providers: [MfaService, MfaAdminService, RecoveryCodesService, TrustedDevicesService],
  exports: [MfaService, RecoveryCodesService, TrustedDevicesService],
})
export class MfaModule {}
