import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { Request, Response } from 'express';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { setRefreshCookie } from '../../platform/web/http/refresh-cookie';
import { SecretInPath } from '../../platform/web/http/secret-paths';
import { ParseIdPipe } from '../../platform/web/pipes/parse-id.pipe';
import { Client, RequestContext } from '../../platform/web/request-context';
import { TokenService } from '../../identity/credentials/token.service';
import { Answers, Errors } from '../../platform/openapi/decorators';
import { CAPABILITY_ROLES, PRIVILEGED_ROLES, Role } from '../../shared/roles';
import {
  AcceptInvitationDto,
  BulkInviteQueryDto,
  InvitationListQueryDto,
  InvitationOrganisationQueryDto,
  InviteDto,
} from './dto/invitation.dto';
import { InvitationsService } from './invitations.service';
import { InvitationAcceptanceService } from './invitation-acceptance.service';
import { BulkFile } from './bulk-file';

/** Granting Site Admin or Administrator through an invitation is sensitive (docs/product-rules.md §7's role grants). */
const grantsPrivilegedRole = ({ body }: { body?: unknown }) => {
  const b = body as { roleId?: unknown; admin?: unknown } | undefined;
  return b?.admin === true || PRIVILEGED_ROLES.includes(b?.roleId as Role);
};

/**
 * Access: support, site admins and administrators list, invite, resend and withdraw, each within the
 * account-action rule (E-Support: site admins of any organisation, named with ?organisationId=; site admins and
 * administrators: their own organisation, the roles they may assign). Reading a link and accepting it are public
 * and throttled, as every call that checks a secret is; an invitation of another organisation is a 404.
 */
@ApiTags('invitations')
@Controller('api/invitations')
export class InvitationsController {
  constructor(
    private readonly invitations: InvitationsService,
    private readonly acceptance: InvitationAcceptanceService,
    private readonly tokens: TokenService,
  ) {}

  @Get()
  @Access({ roles: CAPABILITY_ROLES.INVITATIONS })
  @Answers(200, 'InvitationList', 'The organisation’s invitations, newest first, and its seats')
  list(@CurrentUser() caller: AuthUser, @Query() query: InvitationListQueryDto) {
    return this.invitations.list(caller, query);
  }

  @Post()
  @Access({ roles: CAPABILITY_ROLES.INVITATIONS, stepUp: { when: grantsPrivilegedRole } })
  @Answers(201, 'InvitationItem', 'Invited: the link is e-mailed')
  // DUPLICATE_EMAIL, EMAIL_UNAVAILABLE (the address rule) or INVITATION_EXISTS.
  @Errors(409)
  invite(
    @CurrentUser() caller: AuthUser,
    @Body() dto: InviteDto,
    @Query() query: InvitationOrganisationQueryDto,
    @Client() client: RequestContext,
  ) {
    return this.invitations.invite(caller, dto, client, query.organisationId);
  }

  @Post('bulk')
  @HttpCode(200)
  @Access({
    roles: CAPABILITY_ROLES.INVITATIONS,
    stepUp: { when: ({ body }) => body instanceof BulkFile && body.grantsPrivilegedRole },
  })
  @ApiConsumes('text/csv')
  @ApiBody({ description: 'CSV with the header email,role', schema: { type: 'string' } })
  @Answers(200, ['BulkInviteResult'], 'One result per data row')
  @Errors(413)
  bulk(
    @CurrentUser() caller: AuthUser,
    @Req() req: Request,
    @Query() query: BulkInviteQueryDto,
    @Client() client: RequestContext,
  ) {
    return this.invitations.bulk(caller, req.body, client, query.organisationId, query.expiresInDays);
  }

  @Post(':id/resend')
  @HttpCode(200)
  @Access({ roles: CAPABILITY_ROLES.INVITATIONS })
  @Answers(200, 'InvitationItem', 'A new link e-mailed; the previous one no longer works')
  @Errors(409)
  resend(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number, @Client() client: RequestContext) {
    return this.invitations.resend(caller, id, client);
  }

  @Delete(':id')
  @Access({ roles: CAPABILITY_ROLES.INVITATIONS })
  @Answers(200, 'SuccessOnly', 'Withdrawn: the link no longer works')
  @Errors(409)
  revoke(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number, @Client() client: RequestContext) {
    return this.invitations.revoke(caller, id, client);
  }

  @Get('by-token/:token')
  @SecretInPath('token')
  @Access.public()
  @Throttle({ default: { limit: 30, ttl: 60_000 } })
  @Answers(200, 'InvitationPreview', 'What the invitation page shows')
  @Errors(404)
  preview(@Param('token') token: string) {
    return this.acceptance.preview(token);
  }

  @Post('accept')
  @HttpCode(200)
  @Access.public()
  @Throttle({ default: { limit: 10, ttl: 60_000 } })
  @Answers(200, 'LoginAnswer', 'Signed in, as at login (the refresh cookie is set)')
  // 404 INVITATION_INVALID, 403 SSO_REQUIRED, 409 USER_LIMIT_REACHED (or the address rule's codes).
  @Errors(403, 404, 409)
  async accept(
    @Body() dto: AcceptInvitationDto,
    @Client() client: RequestContext,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { accessToken, refreshToken } = await this.acceptance.accept(dto, client);
    setRefreshCookie(res, refreshToken, this.tokens.cookieSecure);
    return { success: true, accessToken };
  }
}
