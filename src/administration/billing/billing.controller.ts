import { Body, Controller, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { Client, RequestContext } from '../../platform/web/request-context';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { BillingService } from './billing.service';
import { CreateContactProfileDto, UpdateContactProfileDto } from './dto/contact-profile.dto';
import { Answers, Errors } from '../../platform/openapi/decorators';

/** Spec 001 §2.1: users/billing is for site admin, administrator and standard admin. */

/**
 * Access: site admin, administrator and standard admin (spec 001 §2.1 users/billing), each only for
 * their own organisation: the organisation comes from the caller, never from the request, and an id
 * of another organisation's contact is a 404. E-Support has no billing page.
 */
@ApiTags('billing')
@Controller('api/primaryBillingInformation')
export class PrimaryBillingController {
  constructor(private readonly billing: BillingService) {}

  @Answers(200, 'ContactProfile')
  @Get('byMasterAccountId')
  @Access({ roles: CAPABILITY_ROLES.BILLING })
  read(@CurrentUser() caller: AuthUser) {
    return this.billing.read(caller, 'PRIMARY');
  }

  @Answers(201, 'ContactProfile')
  @Errors(409)
  @Post()
  @Access({ roles: CAPABILITY_ROLES.BILLING })
  create(@CurrentUser() caller: AuthUser, @Body() dto: CreateContactProfileDto, @Client() client: RequestContext) {
    return this.billing.create(caller, 'PRIMARY', dto, client);
  }

  @Answers(200, 'ContactProfile')
  @Put()
  @Access({ roles: CAPABILITY_ROLES.BILLING })
  update(@CurrentUser() caller: AuthUser, @Body() dto: UpdateContactProfileDto, @Client() client: RequestContext) {
    return this.billing.update(caller, 'PRIMARY', dto, client);
  }
}

/** Access: as {@link PrimaryBillingController}, for the billing contact. */
@ApiTags('billing')
@Controller('api/billingInformation')
export class BillingContactController {
  constructor(private readonly billing: BillingService) {}

  @Answers(200, 'ContactProfile')
  @Get('byMasterAccountId')
  @Access({ roles: CAPABILITY_ROLES.BILLING })
  read(@CurrentUser() caller: AuthUser) {
    return this.billing.read(caller, 'BILLING');
  }

  @Answers(201, 'ContactProfile')
  @Errors(409)
  @Post()
  @Access({ roles: CAPABILITY_ROLES.BILLING })
  create(@CurrentUser() caller: AuthUser, @Body() dto: CreateContactProfileDto, @Client() client: RequestContext) {
    return this.billing.create(caller, 'BILLING', dto, client);
  }

  @Answers(200, 'ContactProfile')
  @Put()
  @Access({ roles: CAPABILITY_ROLES.BILLING })
  update(@CurrentUser() caller: AuthUser, @Body() dto: UpdateContactProfileDto, @Client() client: RequestContext) {
    return this.billing.update(caller, 'BILLING', dto, client);
  }
}
