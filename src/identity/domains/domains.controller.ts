import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { ParseIdPipe } from '../../platform/web/pipes/parse-id.pipe';
import { Client, RequestContext } from '../../platform/web/request-context';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { DomainsService } from './domains.service';
import { ClaimDomainDto, DomainOrganisationQueryDto } from './dto/domain.dto';
import { Answers, Errors } from '../../platform/openapi/decorators';

/**
 * Access: an organisation's domains are read by support, its site admins and its administrators, and
 * claimed, verified and removed by support and its site admins. E-Support names another organisation
 * with ?organisationId= (listing, claiming); a domain or organisation out of the caller's reach is a 404.
 */
@ApiTags('domains')
@Controller('api/domains')
export class DomainsController {
  constructor(private readonly domains: DomainsService) {}

  @Get()
  @Access({ roles: CAPABILITY_ROLES.SSO_SETTINGS_READ })
  @Answers(200, ['DomainItem'], 'The organisation’s domains, verified or not')
  list(@CurrentUser() caller: AuthUser, @Query() query: DomainOrganisationQueryDto) {
    return this.domains.list(caller, query.organisationId);
  }

  @Post()
  @Access({ roles: CAPABILITY_ROLES.SSO_SETTINGS_MANAGE, stepUp: true })
  @Answers(201, 'DomainItem', 'Claimed: publish txtValue as a TXT record at txtName')
  // DOMAIN_ALREADY_CLAIMED, DOMAIN_TAKEN (verified by another organisation) or DOMAIN_LIMIT.
  @Errors(409)
  claim(
    @CurrentUser() caller: AuthUser,
    @Body() dto: ClaimDomainDto,
    @Query() query: DomainOrganisationQueryDto,
    @Client() client: RequestContext,
  ) {
    return this.domains.claim(caller, dto.domain, client, query.organisationId);
  }

  @Post(':id/verify')
  @HttpCode(200)
  @Access({ roles: CAPABILITY_ROLES.SSO_SETTINGS_MANAGE, stepUp: true })
  @Answers(200, 'DomainVerifyResult', 'The TXT record holds the value: verified')
  // 400 DOMAIN_NOT_VERIFIED carries the reason (NO_RECORD, WRONG_VALUE, DNS_UNAVAILABLE); 409 DOMAIN_TAKEN.
  @Errors(409)
  verify(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number, @Client() client: RequestContext) {
    return this.domains.verify(caller, id, client);
  }

  @Delete(':id')
  @Access({ roles: CAPABILITY_ROLES.SSO_SETTINGS_MANAGE, stepUp: true })
  @Answers(200, 'SuccessOnly', 'Removed; sign-in no longer trusts it')
  remove(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number, @Client() client: RequestContext) {
    return this.domains.remove(caller, id, client);
  }
}
