import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { timingSafeEqual } from 'node:crypto';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { AppException } from '../../platform/web/app.exception';
import { accessOf } from '../../platform/web/decorators/access.decorators';

/** Checks X-Api-Key on @Access.serviceKey() routes against SERVICE_API_KEY; refuses all when none is configured. */
@Injectable()
export class ServiceApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    if (accessOf(this.reflector, context)?.kind !== 'service') return true;
    const expected = this.config.serviceApiKey;
    if (!expected) throw AppException.forbidden('The service API is switched off: SERVICE_API_KEY is not configured.');
    const given = context.switchToHttp().getRequest().headers['x-api-key'];
    if (typeof given !== 'string' || !safeEqual(given, expected))
      throw AppException.unauthorized('A valid X-Api-Key header is required.');
    return true;
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
