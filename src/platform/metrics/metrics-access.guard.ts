import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { Request } from 'express';
import { AppException } from '../web/app.exception';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether an address is this machine (127.0.0.0/8, ::1, or either written as IPv4-mapped IPv6). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  return a === '::1' || (isIP(a) === 4 && a.startsWith('127.'));
}

/**
 * GET /api/metrics answers a scraper that presents METRICS_TOKEN as a Bearer token, or any caller on this
 * machine. The client address is Express's `req.ip` (platform/web/http/client-address.ts): behind a trusted proxy that is
 * the forwarded client, so the proxy's own loopback connection does not open the metrics to everyone, and an
 * unknown address is not this machine.
 */
@Injectable()
export class MetricsAccessGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    const header = req.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (this.config.metricsToken && token && timingSafeEqual(digest(token), digest(this.config.metricsToken)))
      return true;
    if (isLoopback(req.ip)) return true;
    throw AppException.forbidden('Metrics need the METRICS_TOKEN bearer token or a request from this machine.');
  }
}
