import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuditService } from '../../platform/audit';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { ERROR_CODES, SECURITY_MESSAGES } from '../../shared/messages';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser, stepUpUntil } from '../../platform/web/auth-user';
import { requestContextOf } from '../../platform/web/request-context';
import { accessOf } from '../../platform/web/decorators/access.decorators';

/**
 * The check of `@Access({ roles, stepUp })` (docs/product-rules.md §7), after the role check: a sensitive call passes only within
 * STEP_UP_MINUTES of the session's last proof of identity (its sign-in or a step-up, read with the session by the
 * JWT guard, so every instance sees the same mark). A refusal is `403 STEP_UP_REQUIRED` and an audit event.
 */
@Injectable()
export class StepUpGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly audit: AuditService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const access = accessOf(this.reflector, context);
    const options = access?.kind === 'roles' ? access.stepUp : undefined;
    if (!options) return true;
    const req = context.switchToHttp().getRequest<{
      user?: AuthUser;
      body?: unknown;
      query?: unknown;
      params?: unknown;
      method: string;
      route?: { path?: string };
      ip?: string;
      headers: Record<string, string | string[] | undefined>;
    }>();
    if (options.when && !options.when(req)) return true;
    const user = req.user;
    if (!user) throw AppException.unauthorized();
    if (stepUpUntil(user, this.config.stepUpMinutes).getTime() > Date.now()) return true;
    await this.audit.record(this.audit.manager, {
      type: 'STEP_UP_REQUIRED',
      actor: user,
      client: requestContextOf(req),
      summary: `${req.method} ${req.route?.path ?? 'a sensitive call'} refused until the caller confirms it is them`,
    });
    throw AppException.forbidden(SECURITY_MESSAGES.STEP_UP_REQUIRED, ERROR_CODES.STEP_UP_REQUIRED);
  }
}
