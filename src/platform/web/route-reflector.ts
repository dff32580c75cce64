import { Injectable, Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

type Target = Type<unknown> | ((...args: never[]) => unknown);

/**
 * Nest's Reflector, remembering `getAllAndOverride` for a route (its handler and controller): the global guards
 * ask it a dozen times a request (public?, service key?, roles, each throttler's limits) for metadata that is
 * fixed once the decorators have run (no repeated work per request that can be done once).
 * Provided in place of Reflector to the global guards (AppModule).
 */
@Injectable()
export class RouteReflector extends Reflector {
  private readonly remembered = new WeakMap<object, WeakMap<object, Map<unknown, unknown>>>();

  override getAllAndOverride<TResult = unknown>(key: unknown, targets: Target[]): TResult {
    const [handler, classRef] = targets;
    if (targets.length !== 2 || typeof handler !== 'function' || typeof classRef !== 'function')
      return super.getAllAndOverride(key, targets) as TResult;
    let byClass = this.remembered.get(handler);
    if (!byClass) this.remembered.set(handler, (byClass = new WeakMap()));
    let byKey = byClass.get(classRef);
    if (!byKey) byClass.set(classRef, (byKey = new Map()));
    if (byKey.has(key)) return byKey.get(key) as TResult;
    const value = super.getAllAndOverride(key, targets) as TResult;
    byKey.set(key, value);
    return value;
  }
}
