import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { AuthUser } from '../common/auth-user';
import { RequiresStepUp, Roles } from '../common/decorators/access.decorators';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import { ApiErrorDto, SuccessDto } from '../common/dto/api-responses.dto';
import { ParseIdPipe } from '../common/pipes/parse-id.pipe';
import { Client, RequestContext } from '../common/request-context';
import { CAPABILITY_ROLES } from '../shared/roles';
import { DomainsService } from './domains.service';
import { ClaimDomainDto, DomainDto, DomainOrganisationQueryDto, DomainVerifyResultDto } from './dto/domain.dto';

/**
 * Access: an organisation's domains are read by support, its site admins and its administrators, and
 * claimed, verified and removed by support and its site admins. E-Support names another organisation
 * with ?organisationId= (listing, claiming); a domain or organisation out of the caller's reach is a 404.
 */
@ApiTags('domains')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ type: ApiErrorDto, description: 'Not signed in' })
@ApiForbiddenResponse({ type: ApiErrorDto, description: 'The caller’s role may not do this' })
@Controller('api/domains')
export class DomainsController {
  constructor(private readonly domains: DomainsService) {}

  @Get()
  @Roles(CAPABILITY_ROLES.SSO_SETTINGS_READ)
  @ApiOkResponse({ type: [DomainDto], description: 'The organisation’s domains, verified or not' })
  @ApiBadRequestResponse({ type: ApiErrorDto })
  @ApiNotFoundResponse({ type: ApiErrorDto, description: 'No such organisation within reach' })
  list(@CurrentUser() caller: AuthUser, @Query() query: DomainOrganisationQueryDto) {
    return this.domains.list(caller, query.organisationId);
  }

  @Post()
  @Roles(CAPABILITY_ROLES.SSO_SETTINGS_MANAGE)
  @RequiresStepUp()
  @ApiCreatedResponse({ type: DomainDto, description: 'Claimed: publish txtValue as a TXT record at txtName' })
  @ApiBadRequestResponse({ type: ApiErrorDto, description: 'Not a domain name' })
  @ApiNotFoundResponse({ type: ApiErrorDto, description: 'No such organisation within reach' })
  @ApiConflictResponse({
    type: ApiErrorDto,
    description: 'DOMAIN_ALREADY_CLAIMED, DOMAIN_TAKEN (verified by another organisation) or DOMAIN_LIMIT',
  })
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
  @Roles(CAPABILITY_ROLES.SSO_SETTINGS_MANAGE)
  @RequiresStepUp()
  @ApiOkResponse({ type: DomainVerifyResultDto, description: 'The TXT record holds the value: verified' })
  @ApiBadRequestResponse({
    type: ApiErrorDto,
    description: 'DOMAIN_NOT_VERIFIED with reason NO_RECORD, WRONG_VALUE or DNS_UNAVAILABLE; or a bad id',
  })
  @ApiNotFoundResponse({ type: ApiErrorDto })
  @ApiConflictResponse({ type: ApiErrorDto, description: 'DOMAIN_TAKEN: another organisation verified it' })
  verify(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number, @Client() client: RequestContext) {
    return this.domains.verify(caller, id, client);
  }

  @Delete(':id')
  @Roles(CAPABILITY_ROLES.SSO_SETTINGS_MANAGE)
  @RequiresStepUp()
  @ApiOkResponse({ type: SuccessDto, description: 'Removed; sign-in no longer trusts it' })
  @ApiBadRequestResponse({ type: ApiErrorDto })
  @ApiNotFoundResponse({ type: ApiErrorDto })
  remove(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number, @Client() client: RequestContext) {
    return this.domains.remove(caller, id, client);
  }
}
