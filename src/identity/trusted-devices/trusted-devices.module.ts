import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TrustedDevice } from './entities/trusted-device.entity';
import { TrustedDevicesController } from './trusted-devices.controller';
import { TrustedDevicesService } from './trusted-devices.service';
import { AuditModule } from '../../platform/audit';

/**
 * Trusted devices: a device that passed the second factor may skip it for REMEMBER_DEVICE_DAYS. Below MFA and
 * passkeys (both revoke them), above sessions.
 */
@Module({
  imports: [AuditModule, TypeOrmModule.forFeature([TrustedDevice])],
  controllers: [TrustedDevicesController],
  providers: [TrustedDevicesService],
  exports: [TrustedDevicesService],
})
export class TrustedDevicesModule {}
