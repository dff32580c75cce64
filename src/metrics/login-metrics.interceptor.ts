import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable, tap } from 'rxjs';
import { AppException } from '../common/app.exception';
import { MetricsService } from './metrics.service';

/**
 * Counts the outcome of POST /auth/login (`@UseInterceptors(LoginMetricsInterceptor)`): success, or the
 * error code the caller was answered with (invalid_credentials, totp_required, too_many_attempts, ...).
 */
@Injectable()
export class LoginMetricsInterceptor implements NestInterceptor {
  constructor(private readonly metrics: MetricsService) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      tap({
        next: () => this.metrics.login('success'),
        error: (e: unknown) => this.metrics.login(e instanceof AppException ? String(e.code) : 'error'),
      }),
    );
  }
}
