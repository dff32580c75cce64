import { INestApplication, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { NextFunction, Request, Response } from 'express';
import { match } from 'path-to-regexp';
import { ERROR_CODES } from '../../../shared/messages';
import { errorResponse } from '../filters/error-response';

/** A route pattern of a controller and the methods its handlers take. */
interface RouteMethods {
  matches: (path: string) => boolean;
  methods: Set<string>;
}

/**
 * The controllers' route patterns, each under the first two segments of its path where both are plain words (most
 * are: `api/users`, `auth/login`), the others apart: a request's path is matched only against the patterns under its
 * own first two segments and those others, not against every route of the app.
 */
export interface MethodTable {
  byPrefix: Map<string, RouteMethods[]>;
  others: RouteMethods[];
}

/** The first two segments of a path, lower-cased (Express matches paths whatever their case). */
function prefixOf(path: string): string {
  return path.toLowerCase().split('/').filter(Boolean).slice(0, 2).join('/');
}

const asList = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : [String(value ?? '')]);

/** A handler's route: its full path and method, as Nest's router registers it. */
export interface ControllerRoute {
  path: string;
  method: string;
  handler: object;
}

/**
 * Every controller handler's routes, read once from the route metadata Nest's router itself registers from
 * (PATH_METADATA, METHOD_METADATA), so what is built on them cannot disagree with the routes.
 */
export function controllerRoutes(app: INestApplication): ControllerRoute[] {
  const routes: ControllerRoute[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const ctrl = wrapper.metatype as (new (...a: unknown[]) => object) | undefined;
      if (!ctrl?.prototype) continue;
      const bases = asList(Reflect.getMetadata(PATH_METADATA, ctrl));
      for (const name of Object.getOwnPropertyNames(ctrl.prototype)) {
        const handler = Object.getOwnPropertyDescriptor(ctrl.prototype, name)?.value as object | undefined;
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const own = Reflect.getMetadata(PATH_METADATA, handler) as unknown;
        if (own === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        for (const base of bases)
          for (const path of asList(own))
            routes.push({ path: `/${base}/${path}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1'), method, handler });
      }
    }
  }
  return routes;
}

/** Whether a request path is a route pattern's, by Express 5's own matching: case-insensitive, a trailing slash allowed. */
export function routeMatcher(pattern: string): (path: string) => boolean {
  const test = match(pattern, { sensitive: false, trailing: true, decode: false });
  return (path) => test(path) !== false;
}

/** Every controller path with the methods declared on it. */
export function controllerMethodTable(app: INestApplication): MethodTable {
  return methodTable(controllerRoutes(app));
}

/** The table of these routes' paths and methods. */
export function methodTable(routes: ReadonlyArray<Pick<ControllerRoute, 'path' | 'method'>>): MethodTable {
  const byPath = new Map<string, Set<string>>();
  for (const { path, method } of routes) {
    const methods = byPath.get(path) ?? new Set<string>();
    methods.add(method);
    byPath.set(path, methods);
  }
  const table: MethodTable = { byPrefix: new Map(), others: [] };
  for (const [path, methods] of byPath) {
    const route = { matches: routeMatcher(path), methods };
    const segments = path.split('/').filter(Boolean);
    // A pattern's first two segments are a fixed prefix unless one holds a parameter, a wildcard or an optional part.
    if (segments.length >= 2 && segments.slice(0, 2).every((s) => /^[\w.-]+$/.test(s))) {
      const prefix = prefixOf(path);
      table.byPrefix.set(prefix, [...(table.byPrefix.get(prefix) ?? []), route]);
    } else table.others.push(route);
  }
  return table;
}

/** The methods a path takes, as an `Allow` header lists them: HEAD with GET, OPTIONS always. */
export function allowedMethods(table: MethodTable, path: string): string[] | undefined {
  const methods = new Set<string>();
  for (const routes of [table.byPrefix.get(prefixOf(path)) ?? [], table.others])
    for (const route of routes) if (route.matches(path)) for (const m of route.methods) methods.add(m);
  if (methods.size === 0) return undefined;
  if (methods.has('ALL')) return ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS');
  return [...methods].sort();
}

/**
 * RFC 9110 for the controllers' paths: a method a known path does not take is 405 with `Allow` (not the router's
 * 404, which says the resource does not exist), and OPTIONS is answered 204 with `Allow`. No CORS header is added:
 * the product serves its client from its own origin and grants no other.
 */
export function methodNotAllowed(table: MethodTable) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const allow = allowedMethods(table, req.path);
    if (!allow || (req.method !== 'OPTIONS' && allow.includes(req.method))) return next();
    res.setHeader('Allow', allow.join(', '));
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    const { contentType, text } = errorResponse(req.originalUrl, 405, {
      success: false,
      statusCode: 405,
      code: ERROR_CODES.METHOD_NOT_ALLOWED,
      message: `${req.method} is not allowed here; this path takes ${allow.join(', ')}.`,
    });
    res.status(405).setHeader('Content-Type', contentType);
    res.send(text);
  };
}
