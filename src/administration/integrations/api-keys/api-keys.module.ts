import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../../../platform/audit';
import { Organisation } from '../../../platform/database/entities/organisation.entity';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysService } from './api-keys.service';
import { ApiKey } from './entities/api-key.entity';

/** Organisation API keys (/api/api-keys); the key's check on each call is the credentials layer's ApiKeyAuthService. */
@Module({
  imports: [AuditModule, TypeOrmModule.forFeature([ApiKey, Organisation])],
  controllers: [ApiKeysController],
  providers: [ApiKeysService],
})
export class ApiKeysModule {}
