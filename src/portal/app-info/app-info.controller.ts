import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { Access } from '../../platform/web/decorators/access.decorators';
import { AppInfo } from '../../shared/api-types';
import { PRODUCT_NAME } from '../../shared/messages';
import { version } from '../../platform/config/version';
import { Answers } from '../../platform/openapi/decorators';

/** Access: public. What the sign-in page needs before anyone signs in (is SSO on, which environment). */
@ApiTags('app')
@Controller('api/app-info')
export class AppInfoController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Answers(200, 'AppInfo')
  @Access.public()
  @Get()
  info(): AppInfo {
    return {
      productName: PRODUCT_NAME,
      version,
      appEnv: this.config.appEnv,
      ssoEnabled: !!this.config.oidc,
      supportEmail: this.config.supportEmail,
      allowPrivateNetworks: this.config.allowPrivateNetworks,
    };
  }
}
