import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../../platform/audit';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { FederationModule } from '../../identity/federation';
import { SessionsModule } from '../../identity/sessions';
import { SecurityPolicyController } from './security-policy.controller';
import { SecurityPolicyService } from './security-policy.service';

/** An organisation's security policy (docs/security-policy.md): the calls that read and change it. */
@Module({
  imports: [AuditModule, SessionsModule, FederationModule, TypeOrmModule.forFeature([Organisation])],
  controllers: [SecurityPolicyController],
  providers: [SecurityPolicyService],
})
export class SecurityPolicyModule {}
