import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
import { AuthUser } from '../../platform/web/auth-user';
import { runInSupportSession } from '../../platform/web/support-session-call';

/**
 * A call of a support-access session (docs/support-access.md) is handled inside its context, so that whatever the
 * handler records names the E-Support account acting and the member, however the member is named there.
 */
@Injectable()
export class SupportSessionInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const user = context.switchToHttp().getRequest<{ user?: AuthUser }>().user;
    const support = user?.support;
    if (!user || !support) return next.handle();
    // The handler runs when the answer is subscribed to: inside the context, with everything it awaits.
    return new Observable((subscriber) =>
      runInSupportSession(user.id, support, () => next.handle().subscribe(subscriber)),
    );
  }
}
