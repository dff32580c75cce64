import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Organisation } from '../organisations/entities/organisation.entity';
import { DnsTxtResolver } from './dns-txt.resolver';
import { DomainsController } from './domains.controller';
import { DomainsService } from './domains.service';
import { OrganisationDomain } from './entities/organisation-domain.entity';
import { VerifiedDomainsService } from './verified-domains.service';

/** Verified domains (CONTRACT 6); sign-in reads them through VerifiedDomainsService. */
@Module({
  imports: [TypeOrmModule.forFeature([OrganisationDomain, Organisation])],
  controllers: [DomainsController],
  providers: [DomainsService, DnsTxtResolver, VerifiedDomainsService],
  exports: [VerifiedDomainsService],
})
export class DomainsModule {}
