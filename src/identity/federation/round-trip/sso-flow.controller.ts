import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiConsumes, ApiTags } from '@nestjs/swagger';
import { Request, Response } from 'express';
import { Access } from '../../../platform/web/decorators/access.decorators';
import { SignInStep } from '../../../platform/web/http/browser-cookie';
import { ParseIdPipe } from '../../../platform/web/pipes/parse-id.pipe';
import { Client, RequestContext } from '../../../platform/web/request-context';
import { BackChannelLogoutDto, DiscoverDto, SamlPostDto, SsoStartQueryDto } from './dto/sso-flow.dto';
import { Answers, Redirects } from '../../../platform/openapi/decorators';
import { SsoFlowService } from './sso-flow.service';
import { SsoDiscoveryService } from '../discovery/sso-discovery.service';
import { BackChannelLogoutService } from '../logout/back-channel-logout.service';

/**
 * Access: public by nature: the steps of a corporate sign-in, the SP metadata an IdP's administrator downloads,
 * discovery by e-mail, and the provider's back-channel logout (authenticated by the token's signature).
 * The OIDC round trip is bound to the browser by a signed HttpOnly cookie; a SAML answer by its InResponseTo.
 */
@ApiTags('sso')
@Controller()
export class SsoFlowController {
  constructor(
    private readonly flow: SsoFlowService,
    private readonly discovery: SsoDiscoveryService,
    private readonly logout: BackChannelLogoutService,
  ) {}

  @Access.public()
  @Post('auth/sso/discover')
  @HttpCode(200)
  @Answers(200, 'SsoDiscoveryResult', 'Whether the e-mail signs in through its organisation')
  discover(@Body() dto: DiscoverDto) {
    return this.discovery.discover(dto.email);
  }

  @Access.public()
  @Get('auth/sso/:connectionId')
  @SignInStep()
  @Redirects('To the identity provider, or to /logIn with the reason')
  async start(
    @Param('connectionId', ParseIdPipe) id: number,
    @Query() query: SsoStartQueryDto,
    @Res() res: Response,
  ): Promise<void> {
    await this.flow.start(id, res, {
      loginHint: query.login_hint,
      prompt: query.prompt,
      returnTo: query.returnTo,
      tickets: { stepUp: query.stepUp, test: query.test },
    });
  }

  @Access.public()
  @Get('callback')
  @SignInStep()
  @Redirects("To / (or the OpenID provider's sign-in it started from) signed in, or to /logIn with the reason")
  async callback(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.flow.oidcCallback(req, res);
  }

  @Access.public()
  @Post('auth/saml/:id/acs')
  @SignInStep()
  @ApiConsumes('application/x-www-form-urlencoded')
  @Redirects("To / (or the OpenID provider's sign-in it started from) signed in, or to /logIn with the reason")
  async acs(
    @Param('id', ParseIdPipe) id: number,
    @Body() dto: SamlPostDto,
    @Client() client: RequestContext,
    @Res() res: Response,
  ): Promise<void> {
    await this.flow.samlAcs(id, dto.SAMLResponse, client, res, dto.RelayState);
  }

  @Access.public()
  @Get('auth/saml/:id/metadata')
  @Answers(200, { files: ['application/samlmetadata+xml'] }, "This service provider's SAML 2.0 metadata")
  async metadata(@Param('id', ParseIdPipe) id: number, @Res({ passthrough: true }) res: Response): Promise<string> {
    const xml = await this.flow.samlMetadata(id);
    // Set only on success: a refusal keeps the JSON error body's type.
    res.type('application/samlmetadata+xml');
    return xml;
  }

  @Access.public()
  @Get('auth/saml/:id/slo')
  @Redirects("The IdP's answer to our logout request: on to the sign-in page")
  sloReturn(@Param('id', ParseIdPipe) _id: number, @Res() res: Response): void {
    // Our session ended before the browser went to the IdP; its answer changes nothing here.
    res.redirect(302, '/logIn');
  }

  @Access.public()
  @Post('auth/sso/:connectionId/backchannel-logout')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiConsumes('application/x-www-form-urlencoded')
  @Answers(200, 'SuccessOnly', 'The sessions the token names have ended')
  backChannelLogout(
    @Param('connectionId', ParseIdPipe) id: number,
    @Body() dto: BackChannelLogoutDto,
    @Client() client: RequestContext,
  ) {
    return this.logout.backChannelLogout(id, dto.logout_token, client);
  }
}
