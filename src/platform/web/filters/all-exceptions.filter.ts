import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { Request, Response } from 'express';
import { QueryFailedError } from 'typeorm';
import { AVAILABILITY_MESSAGES, ERROR_CODES } from '../../../shared/messages';
import { EngineState, RETRY_AFTER_SECONDS } from '../engine-state';
import { unavailableEngine } from '../engine-unavailable';
import { errorResponse } from './error-response';

const CODE_BY_STATUS: Record<number, string> = {
  400: ERROR_CODES.VALIDATION_FAILED,
  401: ERROR_CODES.UNAUTHENTICATED,
  403: ERROR_CODES.FORBIDDEN,
  404: ERROR_CODES.NOT_FOUND,
  409: ERROR_CODES.CONFLICT,
  413: ERROR_CODES.PAYLOAD_TOO_LARGE,
  429: ERROR_CODES.TOO_MANY_ATTEMPTS,
};

/** Texts for the errors of the body parsers (express.json, express.urlencoded), by their `type`. */
const BODY_PARSER_MESSAGES: Record<string, string> = {
  'entity.parse.failed': 'The request body is not valid JSON.',
  'entity.too.large': 'The request body is too large.',
  'request.aborted': 'The request was aborted.',
  'charset.unsupported': 'The request body has an unsupported character set.',
  'encoding.unsupported': 'The request body has an unsupported content encoding.',
  'parameters.too.many': 'The request body has too many parameters.',
  'querystring.parse.rangeError': 'The request body is nested too deeply.',
};

/**
 * Writes every error as the error body (docs/product-rules.md §3): {success: false, statusCode, code, message}. On /scim/ the same body
 * also carries the SCIM error schema's fields (schemas, status as text, scimType, detail), which a directory reads.
 * An engine that cannot be reached (engine-unavailable.ts) is a 503 SERVICE_UNAVAILABLE with `Retry-After`, reported
 * to the EngineState (which logs the outage once), not a 500 with a stack trace per request.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  constructor(private readonly engines?: EngineState) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') return;
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) return;

    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const raw = exception.getResponse();
      const body = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : { message: raw };
      // Nest hands body-parser's errors over as HttpExceptions whose cause keeps body-parser's `type`.
      const parserType = (exception.cause as { type?: unknown } | undefined)?.type;
      const message =
        typeof parserType === 'string' && BODY_PARSER_MESSAGES[parserType]
          ? BODY_PARSER_MESSAGES[parserType]
          : status === 400 && exception.cause instanceof SyntaxError
            ? 'The request body is not valid JSON.'
            : Array.isArray(body.message)
              ? body.message.join('; ')
              : String(body.message ?? exception.message);
      send(host, status, {
        ...body,
        success: false,
        statusCode: status,
        code: typeof body.code === 'string' ? body.code : (CODE_BY_STATUS[status] ?? `HTTP_${status}`),
        message,
        error: undefined,
      });
      return;
    }
    // Body-parser errors (malformed JSON, too large) carry a status but are not HttpExceptions.
    const maybe = exception as { status?: number; type?: string; message?: string };
    if (typeof maybe?.status === 'number' && maybe.status >= 400 && maybe.status < 500) {
      const message = BODY_PARSER_MESSAGES[maybe.type ?? ''] ?? maybe.message ?? 'Bad request.';
      send(host, maybe.status, {
        success: false,
        statusCode: maybe.status,
        code: CODE_BY_STATUS[maybe.status] ?? `HTTP_${maybe.status}`,
        message,
      });
      return;
    }
    // PostgreSQL's data exceptions (a number out of its column's range, text that is no number): bad input
    // that validation let through; the transaction was rolled back, so nothing changed.
    const driverCode = (exception as { driverError?: { code?: unknown } })?.driverError?.code;
    if (exception instanceof QueryFailedError && typeof driverCode === 'string' && /^22/.test(driverCode)) {
      send(host, HttpStatus.BAD_REQUEST, {
        success: false,
        statusCode: 400,
        code: ERROR_CODES.VALIDATION_FAILED,
        message: 'A value is out of the range the product accepts.',
      });
      return;
    }
    const engine = unavailableEngine(exception);
    if (engine) {
      this.engines?.down(engine, exception);
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
      send(host, HttpStatus.SERVICE_UNAVAILABLE, {
        success: false,
        statusCode: 503,
        code: ERROR_CODES.SERVICE_UNAVAILABLE,
        message: AVAILABILITY_MESSAGES.SERVICE_UNAVAILABLE,
      });
      return;
    }
    const text = exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
    // Through the request's own logger when the request log gave it one: the line then carries the request (its id,
    // the one the client got in X-Request-Id, method, path), which a line from Nest's Logger does not (docs/decisions/perf-request-pipeline.md).
    const log = host.switchToHttp().getRequest<{ log?: { error(bindings: object, msg: string): void } }>().log;
    if (log) log.error({ context: 'Exceptions' }, text);
    else this.logger.error(text);
    send(host, HttpStatus.INTERNAL_SERVER_ERROR, {
      success: false,
      statusCode: 500,
      code: ERROR_CODES.INTERNAL,
      message: 'Sorry, an error occurred on the server. It has been logged.',
    });
  }
}

/** The error body, with the SCIM error schema's fields on the SCIM service's paths (errorResponse). */
function send(host: ArgumentsHost, status: number, body: Record<string, unknown>): void {
  const res = host.switchToHttp().getResponse<Response>();
  const req = host.switchToHttp().getRequest<Request>();
  const { contentType, text } = errorResponse(req.originalUrl ?? req.url ?? '', status, body);
  res.status(status).setHeader('Content-Type', contentType);
  res.send(text);
}
