import { HttpStatus, INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { AppException } from '../app.exception';
import { ERROR_CODES } from '../../shared/messages';

/**
 * Bounds on what a request body may be (docs/decisions.md, "Hostile input"). The largest legitimate JSON
 * body is an announcement (10,000 characters of content); the logo upload has its own raw-body parser
 * and limit (LIMITS.LOGO_MAX_BYTES), and report uploads are multipart with their own limit.
 */
export const BODY_LIMITS = {
  /** JSON and url-encoded bodies, in bytes. */
  MAX_BYTES: 100 * 1024,
  /** Nesting of arrays and objects: our deepest DTO is 2 levels; anything near this bound is hostile. */
  MAX_DEPTH: 32,
} as const;

/**
 * How deeply `value` nests arrays and objects (a scalar is 0, `[]` is 1), counted without recursion so
 * that a hostile body cannot exhaust the stack; stops as soon as `max` is exceeded.
 */
export function nestingDepth(value: unknown, max = Infinity): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    const here = depth + 1;
    if (here > deepest) deepest = here;
    if (deepest > max) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, here]);
    }
  }
  return deepest;
}

/** Refuses a parsed body nested deeper than `max`, before any guard, pipe or transform walks it. */
export function bodyDepthLimit(max: number) {
  return function bodyDepthLimit(req: Request, _res: Response, next: NextFunction): void {
    const body: unknown = req.body;
    if (typeof body === 'object' && body !== null && !Buffer.isBuffer(body) && nestingDepth(body, max) > max) {
      return next(new AppException(HttpStatus.BAD_REQUEST, ERROR_CODES.BODY_TOO_DEEP, `The request body is nested too deeply (at most ${max} levels).`));
    }
    next();
  };
}

/**
 * The JSON and url-encoded parsers with the bounds above, then the depth check. Registered here, in
 * order, so that Nest's own default parsers (same names) are not added again at init.
 */
export function configureBodyParsing(app: INestApplication): void {
  const express = app as NestExpressApplication;
  express.useBodyParser('json', { limit: BODY_LIMITS.MAX_BYTES });
  // body-parser 2 refuses url-encoded keys nested deeper than 32 brackets itself (400, 'querystring.parse.rangeError').
  express.useBodyParser('urlencoded', { limit: BODY_LIMITS.MAX_BYTES, extended: true, parameterLimit: 1000 });
  express.use(bodyDepthLimit(BODY_LIMITS.MAX_DEPTH));
}
