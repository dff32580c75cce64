import { Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Response } from 'express';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { ParseIdPipe } from '../../platform/web/pipes/parse-id.pipe';
import { Client, RequestContext } from '../../platform/web/request-context';
import { Answers, Errors } from '../../platform/openapi/decorators';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { MyDataService } from './my-data.service';
import { PrivacyService } from './privacy.service';

/**
 * Access (docs/privacy.md): every signed-in member downloads their own data and, where the organisation's policy
 * allows it, deletes their own account (E-Support never); an organisation's site admins erase its members whose
 * access is off, E-Support any organisation's (never an E-Support account). Each is a sensitive call (step-up).
 * Another organisation's member is a 404 to a site admin.
 */
@ApiTags('privacy')
@Controller()
export class PrivacyController {
  constructor(
    private readonly myData: MyDataService,
    private readonly privacy: PrivacyService,
  ) {}

  @Get('api/me/privacy')
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN })
  @Answers(200, 'MyPrivacy', 'Whether you may delete your own account, and how long what is kept')
  mine(@CurrentUser() caller: AuthUser) {
    return this.privacy.mine(caller);
  }

  @Get('api/me/data-export')
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN, stepUp: true })
  @Answers(200, { files: ['application/json'] }, 'Everything the portal keeps about you, as one JSON document')
  async dataExport(
    @CurrentUser() caller: AuthUser,
    @Res() res: Response,
    @Client() client: RequestContext,
  ): Promise<void> {
    res.status(200);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader(
      'Content-Disposition',
      `attachment; filename="my-data-${new Date().toISOString().slice(0, 10)}.json"`,
    );
    res.setHeader('Cache-Control', 'no-store');
    await this.myData.write(caller, res, client);
  }

  @Delete('api/me')
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN, stepUp: true })
  // 403 SELF_DELETION_OFF, or an E-Support account; 409 LAST_SITE_ADMIN, DIRECTORY_MANAGED.
  @Errors(409)
  @Answers(200, 'SuccessMessage', 'Your account is erased and every session of it has ended')
  deleteMe(@CurrentUser() caller: AuthUser, @Client() client: RequestContext) {
    return this.privacy.deleteOwn(caller, client);
  }

  @Post('api/users/:id/erase')
  @HttpCode(200)
  @Access({ roles: CAPABILITY_ROLES.ERASE_USER, stepUp: true })
  // 409 ACCESS_STILL_ON: switch the account's access off first.
  @Errors(409)
  @Answers(200, 'SuccessMessage', 'The account is erased: a tombstone that never signs in')
  erase(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number, @Client() client: RequestContext) {
    return this.privacy.erase(caller, id, client);
  }
}
