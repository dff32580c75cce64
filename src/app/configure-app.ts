import { INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import { browserCookie, signInRoutes } from '../platform/web/http/browser-cookie';
import { clientAddressOf } from '../platform/web/http/client-address';
import { secretPathRedactor } from '../platform/web/http/secret-paths';
import { supportSessionCalls } from '../platform/web/support-session-call';
import { expressTrustSetting, ProxyTrust } from '../platform/config/proxy-trust';
import { Logger } from 'pino';
import { CLIENT_DIST } from './app.module';
import { EngineState } from '../platform/web/engine-state';
import { AllExceptionsFilter } from '../platform/web/filters/all-exceptions.filter';
import { answerClientErrors } from '../platform/web/http/client-error';
import { configureBodyParsing } from '../platform/web/middleware/body-parsing';
import { controllerMethodTable, methodNotAllowed } from '../platform/web/middleware/method-table';
import { DEFAULT_HEADERS, securityHeaderOptions, securityHeaders } from '../platform/web/middleware/security-headers';
import { DtoValidationPipe } from '../platform/web/pipes/dto-validation.pipe';
import { APP_CONFIG } from '../platform/config/app-config.module';
import { AppConfig } from '../platform/config/env.validation';
import { requestLogging, ROOT_LOGGER } from '../platform/logging/logging.module';
import { httpMetrics } from '../platform/metrics/http-metrics';
import { MetricsService } from '../platform/metrics/metrics.service';
import { LeanIoAdapter } from '../portal/notifications/transport/lean-io.adapter';
import { RedisIoAdapter } from '../portal/notifications/transport/redis-io.adapter';
import { openApiDocument } from '../platform/openapi/document';
import { RedisConnection } from '../platform/redis/redis.module';
import { ClientAssets, compressResponses } from '../platform/static/client-assets.middleware';
import { OidcProviderService } from '../identity/oidc-provider';

/**
 * Everything main.ts and the e2e tests share: security headers, parsing, validation, errors, docs (returned). The
 * document depends on the code alone: an application of the same code may be given the one built for another.
 */
export function configureApp(app: INestApplication, document: OpenAPIObject = openApiDocument(app)): OpenAPIObject {
  const config = app.get<AppConfig>(APP_CONFIG);
  const express = app as NestExpressApplication;
  // The client address (throttling, allowed address ranges, audit) by the one rule the socket handshake follows too;
  // Express's own reading of the forwarded headers (req.protocol, req.hostname) trusts the same proxies.
  express.set('trust proxy', expressTrustSetting(config.trustProxy));
  useClientAddress(express, config.trustProxy);
  express.disable('x-powered-by');
  // No ETag on API answers (a hash of every body, never revalidated by the client: its queries refetch); the
  // client's files carry their own (ClientAssets).
  express.set('etag', false);
  // Requests Node's HTTP parser refuses before any middleware (431, 400, 408) answer in the same error body.
  answerClientErrors(app.getHttpServer());
  // First: every request, whatever answers it, gets its id, its closing log line and its count in the metrics.
  app.use(requestLogging(app.get<Logger>(ROOT_LOGGER), httpMetrics(app.get(MetricsService)), secretPathRedactor(app)));
  app.use(securityHeaders(securityHeaderOptions(config.publicUrl), DEFAULT_HEADERS));
  // JSON compressed above a threshold; the client's hashed assets from their build-time compressed copies. Plain
  // Express middlewares, as the ones above: mounted through Nest's MiddlewareConsumer each would run inside an
  // async proxy of its own on every request.
  app.use(compressResponses());
  app.use(methodNotAllowed(controllerMethodTable(app)));
  app.use(new ClientAssets(CLIENT_DIST).use);
  app.use(cookieParser());
  app.use(browserCookie(config.publicUrl.startsWith('https:'), signInRoutes(app)));
  // A support-access session's calls are served in a context that names who acts (docs/support-access.md).
  app.use(supportSessionCalls);
  // The OpenID provider before the body parsers: it reads its own request bodies (docs/oidc-provider.md).
  app.use(app.get(OidcProviderService).middleware);
  configureBodyParsing(app);
  app.useGlobalPipes(new DtoValidationPipe());
  app.useGlobalFilters(new AllExceptionsFilter(app.get(EngineState)));
  // Several instances: sockets and their rooms through Redis (REDIS_URL), so every instance reaches every socket.
  app.useWebSocketAdapter(
    config.redisUrl
      ? new RedisIoAdapter(app, app.get(RedisConnection), config.socketTransportTuning)
      : new LeanIoAdapter(app, config.socketTransportTuning),
  );

  SwaggerModule.setup('api/docs', app, document);
  return document;
}

/** Where a request keeps its client address once worked out (null: unknown). */
const CLIENT_ADDRESS = Symbol('clientAddress');

/**
 * Express's `req.ip`, for every request of this app, is {@link clientAddressOf} (undefined when unknown), worked out
 * once per request: the logging, the throttles and the session check each read it.
 */
function useClientAddress(app: NestExpressApplication, trust: ProxyTrust): void {
  const { request } = app.getHttpAdapter().getInstance() as { request: object };
  Object.defineProperty(request, 'ip', {
    configurable: true,
    enumerable: true,
    get(this: Parameters<typeof clientAddressOf>[0] & { [CLIENT_ADDRESS]?: string | null }) {
      if (this[CLIENT_ADDRESS] === undefined) this[CLIENT_ADDRESS] = clientAddressOf(this, trust);
      return this[CLIENT_ADDRESS] ?? undefined;
    },
  });
}
