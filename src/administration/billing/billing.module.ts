import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BillingContactController, PrimaryBillingController } from './billing.controller';
import { BillingService } from './billing.service';
import { ContactProfileEntity } from './entities/contact-profile.entity';
import { AuditModule } from '../../platform/audit';

@Module({
  imports: [AuditModule, TypeOrmModule.forFeature([ContactProfileEntity])],
  controllers: [PrimaryBillingController, BillingContactController],
  providers: [BillingService],
})
export class BillingModule {}
