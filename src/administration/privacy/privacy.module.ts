import { Module } from '@nestjs/common';
import { AuditModule } from '../../platform/audit';
import { UsersModule } from '../../identity/users';
import { MyDataService } from './my-data.service';
import { PrivacyController } from './privacy.controller';
import { PrivacyService } from './privacy.service';
import { RetentionService } from './retention.service';

/** Privacy (docs/privacy.md): a person's own data, erasure, and the daily retention job. */
@Module({
  imports: [AuditModule, UsersModule],
  controllers: [PrivacyController],
  providers: [MyDataService, PrivacyService, RetentionService],
})
export class PrivacyModule {}
