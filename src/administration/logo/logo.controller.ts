import { Body, Controller, Get, HttpCode, Param, Post, Put, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiTags } from '@nestjs/swagger';
import { Request, Response } from 'express';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { SecretInPath } from '../../platform/web/http/secret-paths';
import { Client, RequestContext } from '../../platform/web/request-context';
import { LOGO_MIME_TYPES } from '../../shared/administration/organisation-admin';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { LogoUploadUrlDto, SaveLogoDto } from './dto/logo.dto';
import { LogoService } from './logo.service';
import { Answers, Errors } from '../../platform/openapi/decorators';

/** The logo uploader sits on the billing page (spec 001 §2.1 users/billing). */

/**
 * Access: site admin, administrator and standard admin ask for an upload URL and save the logo of their
 * own organisation; every signed-in user reads their organisation's logo path (the header shows it).
 * The upload PUT is public by design: the signed, expiring, single-use URL bound to the organisation,
 * file name, size and type is the credential. The files are served to anyone holding their random,
 * unguessable name (an <img> cannot send a bearer token), as an image with nosniff.
 */
@ApiTags('logo')
@Controller()
export class LogoController {
  constructor(private readonly logo: LogoService) {}

  @Answers(200, 'LogoInfo')
  @Get('api/logo/byMasterAccountId')
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN })
  read(@CurrentUser() caller: AuthUser) {
    return this.logo.read(caller);
  }

  @Answers(200, 'LogoUploadUrl')
  @Post('api/logo/get-upload-url')
  @HttpCode(200)
  @Access({ roles: CAPABILITY_ROLES.LOGO_UPLOAD })
  uploadUrl(@CurrentUser() caller: AuthUser, @Body() dto: LogoUploadUrlDto) {
    return this.logo.uploadUrl(caller, dto);
  }

  @Answers(200, 'LogoUploaded')
  @Errors(403, 409)
  @ApiConsumes(...LOGO_MIME_TYPES)
  @ApiBody({ description: 'The image, as bytes', schema: { type: 'string', format: 'binary' } })
  @Access.public()
  @Put('api/logo/upload/:token')
  @SecretInPath('token')
  upload(@Param('token') token: string, @Req() req: Request) {
    return this.logo.upload(token, req.body);
  }

  @Answers(200, 'LogoSaved')
  @Post('api/logo/save')
  @HttpCode(200)
  @Access({ roles: CAPABILITY_ROLES.LOGO_UPLOAD })
  save(@CurrentUser() caller: AuthUser, @Body() dto: SaveLogoDto, @Client() client: RequestContext) {
    return this.logo.save(caller, dto.logoPath, client);
  }

  @Answers(200, { files: LOGO_MIME_TYPES })
  @Access.public()
  @Get('files/logos/:name')
  async serve(@Param('name') name: string, @Res() res: Response) {
    const file = await this.logo.file(name);
    res.set({
      'Content-Type': file.type,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Content-Disposition': 'inline',
      'Cache-Control': 'private, max-age=3600',
    });
    res.send(file.data);
  }
}
