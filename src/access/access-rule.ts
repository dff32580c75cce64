import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ACCESS_KEY, AccessRule } from '../common/decorators/access.decorators';

/**
 * The route's one @Access rule (on the handler, else its controller); undefined for a route that states none,
 * which the roles guard refuses. Read through the RouteReflector, which remembers it per route.
 */
export function accessOf(reflector: Reflector, context: ExecutionContext): AccessRule | undefined {
  return reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_KEY, [context.getHandler(), context.getClass()]);
}
