import { AccessRule } from '../../platform/web/decorators/access.decorators';
import { ApiKeyScope } from '../../shared/administration/api-keys';

/**
 * Whether an organisation API key with these scopes may make this call (docs/api-keys.md): the route names the key's
 * scope on its `@Access({ roles, apiKey })`, and is not sensitive for this request (a sensitive call of docs/product-rules.md §7
 * is never a key's). Default-deny: a route that names no scope, or has no rule, is closed to keys.
 */
export function apiKeyMayCall(
  access: AccessRule | undefined,
  scopes: readonly ApiKeyScope[],
  request: { body?: unknown; query?: unknown; params?: unknown },
): boolean {
  if (access?.kind !== 'roles' || !access.apiKey || !scopes.includes(access.apiKey)) return false;
  if (!access.stepUp) return true;
  return access.stepUp.when !== undefined && !access.stepUp.when(request);
}
