import { HttpStatus, INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { json } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { AppException } from '../app.exception';
import { ERROR_CODES } from '../../../shared/messages';

/**
 * Bounds on what a request body may be (docs/decisions/hostile-input.md). The largest legitimate JSON
 * body is an announcement (10,000 characters of content); the logo upload has its own raw-body parser
 * and limit (LIMITS.LOGO_MAX_BYTES), and report uploads are multipart with their own limit.
 */
export const BODY_LIMITS = {
  /** JSON and url-encoded bodies, in bytes. */
  MAX_BYTES: 100 * 1024,
  /** Nesting of arrays and objects: our deepest DTO is 2 levels; anything near this bound is hostile. */
  MAX_DEPTH: 32,
} as const;

/** The SCIM service's mount point and the media type its bodies use. */
const SCIM_PATH = '/scim';
const SCIM_MEDIA_TYPE = 'application/scim+json';

/** A lone UTF-16 surrogate: JSON can carry one (`"\ud83d"`), no UTF-8 text can, and validator.js throws on it. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * How deeply `value` nests arrays and objects (a scalar is 0, `[]` is 1), counted without recursion so
 * that a hostile body cannot exhaust the stack; stops as soon as `max` is exceeded.
 */
export function nestingDepth(value: unknown, max = Infinity): number {
  return inspect(value, max).depth;
}

/** Whether any string or key in `value` is not well-formed Unicode (holds a lone surrogate). */
export function hasIllFormedText(value: unknown): boolean {
  return inspect(value, Infinity).illFormed;
}

/** One walk with an explicit stack: the depth (stopping past `max`) and the first ill-formed string or key. */
function inspect(value: unknown, max: number): { depth: number; illFormed: boolean } {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v)) return { depth: deepest, illFormed: true };
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    const here = depth + 1;
    if (here > deepest) deepest = here;
    if (deepest > max) return { depth: deepest, illFormed: false };
    if (Array.isArray(v)) {
      for (const child of v) stack.push([child, here]);
    } else {
      for (const [key, child] of Object.entries(v)) {
        if (LONE_SURROGATE.test(key)) return { depth: deepest, illFormed: true };
        stack.push([child, here]);
      }
    }
  }
  return { depth: deepest, illFormed: false };
}

/**
 * Refuses a parsed body nested deeper than `max`, or holding text that is not well-formed Unicode, before
 * any guard, pipe or transform walks it.
 */
export function bodyShapeCheck(max: number) {
  return function bodyShapeCheck(req: Request, _res: Response, next: NextFunction): void {
    const body: unknown = req.body;
    if (typeof body !== 'object' || body === null || Buffer.isBuffer(body)) return next();
    const { depth, illFormed } = inspect(body, max);
    if (depth > max) {
      return next(
        new AppException(
          HttpStatus.BAD_REQUEST,
          ERROR_CODES.BODY_TOO_DEEP,
          `The request body is nested too deeply (at most ${max} levels).`,
        ),
      );
    }
    if (illFormed) return next(AppException.badRequest('The request body holds text that is not valid Unicode.'));
    next();
  };
}

/**
 * The JSON and url-encoded parsers with the bounds above, then the shape check. Registered here, in
 * order, so that Nest's own default parsers (same names) are not added again at init.
 */
export function configureBodyParsing(app: INestApplication): void {
  const express = app as NestExpressApplication;
  express.useBodyParser('json', { limit: BODY_LIMITS.MAX_BYTES });
  // A directory sends SCIM's own media type (RFC 7644 §3.1); only the SCIM service takes it as JSON.
  express.use(SCIM_PATH, json({ limit: BODY_LIMITS.MAX_BYTES, type: SCIM_MEDIA_TYPE }));
  // body-parser 2 refuses url-encoded keys nested deeper than 32 brackets itself (400, 'querystring.parse.rangeError').
  express.useBodyParser('urlencoded', { limit: BODY_LIMITS.MAX_BYTES, extended: true, parameterLimit: 1000 });
  express.use(bodyShapeCheck(BODY_LIMITS.MAX_DEPTH));
}
