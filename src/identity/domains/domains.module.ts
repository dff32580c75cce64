import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { DnsTxtResolver } from './dns-txt.resolver';
import { DomainsController } from './domains.controller';
import { DomainsService } from './domains.service';
import { OrganisationDomain } from './entities/organisation-domain.entity';
import { VerifiedDomainsService } from './verified-domains.service';
import { DomainRecheckService } from './domain-recheck.service';
import { User } from '../../platform/database/entities/user.entity';
import { AuditModule } from '../../platform/audit';

/** Verified domains (docs/product-rules.md §6); sign-in reads them through VerifiedDomainsService. */
@Module({
  imports: [AuditModule, TypeOrmModule.forFeature([OrganisationDomain, Organisation, User])],
  controllers: [DomainsController],
  providers: [DomainsService, DnsTxtResolver, VerifiedDomainsService, DomainRecheckService],
  exports: [VerifiedDomainsService],
})
export class DomainsModule {}
