import { applyDecorators, ExecutionContext, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiResponse, ApiSecurity } from '@nestjs/swagger';
import { ErrorResponse } from '../error-response.dto';
import type { ApiKeyScope } from '../../../shared/administration/api-keys';
import { ERROR_CODES } from '../../../shared/messages';
import { Role } from '../../../shared/roles';

/** The credentials a route may take, as the OpenAPI document names its security schemes. */
export type Credential = 'bearer' | 'apiKey' | 'challenge' | 'service' | 'provisioning' | 'refreshCookie';

/** A step of sign-in after the first: the 401 of POST /auth/login hands out a challenge token for it. */
export type ChallengeStep = 'mfa' | 'change-password';

/** What a step-up marker says: always, or only when its request asks for something sensitive. */
export interface StepUpOptions {
  /**
   * Decides from the request as it arrives (before validation) whether this call is sensitive, e.g. a role change
   * that grants Administrator or Site Admin. Left out: every call of the route is.
   */
  when?: (request: { body?: unknown; query?: unknown; params?: unknown }) => boolean;
}

/** Who may call a route: the one decision the global guards (src/identity/access) act on and the inventory lists. */
export type AccessRule =
  | {
      kind: 'roles';
      roles: readonly Role[];
      /** An account whose MFA is enforced but not yet set up may call it (its own profile, enrolment, logout). */
      mfaPending: boolean;
      /** A sensitive action (docs/product-rules.md §7): the caller proved who they are within STEP_UP_MINUTES. */
      stepUp?: StepUpOptions;
      /**
       * The scope an organisation API key needs to call it (docs/api-keys.md); left out, no key may. A key's scope
       * stands in for the roles; a sensitive call is never open to a key, whatever its scopes.
       */
      apiKey?: ApiKeyScope;
      /**
       * Refused in a support-access session (docs/support-access.md) beside every sensitive call: a change to the
       * member's credentials (password, second factors, passkeys, recovery codes, trusted devices, step-up), to the
       * organisation's integrations, or a request for support access.
       */
      refusedInSupportSession?: true;
    }
  | {
      kind: 'public';
      /** Reads the caller's own access token when one is sent (logout, status, a signed-in sender). */
      session?: 'optional';
      /** Reads the refresh token cookie (POST /refresh), which its service checks as it rotates it. */
      refreshCookie?: true;
    }
  | { kind: 'service' }
  | { kind: 'scim' }
  | {
      kind: 'challenge';
      step: ChallengeStep;
      /** The route also answers without one (a first sign-in step, a password-less passkey). */
      optional: boolean;
    };

export const ACCESS_KEY = 'access';

/** The OpenAPI texts of a refusal by the access guards (the document's other refusals are in src/platform/openapi). */
export const ACCESS_REFUSALS = {
  401: 'No valid credential, or the sign-in needs another step (TOTP_REQUIRED, PASSWORD_CHANGE_REQUIRED)',
  403: 'The credential has expired ("jwt expired") or the caller may not do this',
  stepUp: `${ERROR_CODES.STEP_UP_REQUIRED}: the caller has not proved who they are within STEP_UP_MINUTES (POST /auth/step-up), or lacks the role; ${ERROR_CODES.SUPPORT_ACCESS_FORBIDDEN}: a support-access session`,
  supportSession: `The caller may not do this; ${ERROR_CODES.SUPPORT_ACCESS_FORBIDDEN}: not available in a support-access session`,
  apiKey: `The caller may not do this; for an organisation API key, ${ERROR_CODES.INSUFFICIENT_SCOPE}: the route is outside its scopes`,
  scim401: 'No provisioning token, or a revoked one',
} as const;

function declare(
  rule: AccessRule,
  credentials: Credential[],
  optional = false,
  forbidden: string = ACCESS_REFUSALS[403],
) {
  const decorators: Array<ClassDecorator | MethodDecorator> = [
    (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
      const on = descriptor ? (descriptor.value as object) : target;
      // One statement of who may call a route: a second one on the same handler or controller is a mistake that
      // would leave the reader to guess which one wins.
      if (Reflect.hasOwnMetadata(ACCESS_KEY, on))
        throw new Error(`${describe(target, key)} states its access twice: one @Access per route`);
      SetMetadata(ACCESS_KEY, rule)(target, key as never, descriptor as never);
    },
  ];
  if (optional) decorators.push(ApiSecurity({}));
  for (const credential of credentials) decorators.push(ApiSecurity(credential));
  if (credentials.length > 0)
    decorators.push(
      ApiResponse({
        status: 401,
        description: rule.kind === 'scim' ? ACCESS_REFUSALS.scim401 : ACCESS_REFUSALS[401],
        type: ErrorResponse,
      }),
      ApiResponse({ status: 403, description: forbidden, type: ErrorResponse }),
    );
  return applyDecorators(...decorators);
}

function describe(target: object, key?: string | symbol): string {
  const name = typeof target === 'function' ? target.name : (target.constructor as { name: string }).name;
  return key === undefined ? name : `${name}.${String(key)}`;
}

/**
 * Who may call a route, stated once, on the handler or its controller: the global guards act on it (src/identity/access),
 * and it carries the route's OpenAPI security (its credential, the 401 and 403 it may answer).
 *
 * - `@Access({ roles })`: a signed-in caller with one of these roles (default-deny: a route without @Access is
 *   refused); `mfaPending: true` lets an account whose enforced MFA is not set up yet call it; `stepUp` makes it a
 *   sensitive action (`true`, or `{ when }` to decide per request), refused with `403 STEP_UP_REQUIRED` unless the
 *   caller proved who they are within STEP_UP_MINUTES (the client's 'Confirm it's you' dialog, then a retry);
 *   `apiKey: 'users:read'` opens it to an organisation API key holding that scope (and never a sensitive call);
 *   `supportSession: 'refused'` refuses it in a support-access session, as every sensitive call is.
 * - `@Access.public()`: anyone (sign-in, health, legal pages); see its options.
 * - `@Access.serviceKey()`: back-end systems, by the X-Api-Key header (SERVICE_API_KEY).
 * - `@Access.scim()`: an organisation's directory (SCIM 2.0) by one of its provisioning tokens; the caller is
 *   `@CurrentScimToken()`.
 * - `@Access.challenge(step)`: the holder of the challenge token of a sign-in step (the 401 of POST /auth/login),
 *   verified by the access guard and handed over as `@CurrentChallenge()`.
 */
export function Access(options: {
  roles: readonly Role[];
  mfaPending?: boolean;
  stepUp?: true | StepUpOptions;
  apiKey?: ApiKeyScope;
  supportSession?: 'refused';
}) {
  const stepUp = options.stepUp === true ? {} : options.stepUp;
  // A route is either sensitive or open to keys; a key never makes a sensitive call (a `when` decides per request).
  if (options.stepUp === true && options.apiKey)
    throw new Error('A sensitive route is never open to an API key: drop its apiKey scope');
  return declare(
    {
      kind: 'roles',
      roles: options.roles,
      mfaPending: options.mfaPending === true,
      ...(stepUp ? { stepUp } : {}),
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      ...(options.supportSession === 'refused' ? { refusedInSupportSession: true as const } : {}),
    },
    options.apiKey ? ['bearer', 'apiKey'] : ['bearer'],
    false,
    stepUp
      ? ACCESS_REFUSALS.stepUp
      : options.apiKey
        ? ACCESS_REFUSALS.apiKey
        : options.supportSession
          ? ACCESS_REFUSALS.supportSession
          : ACCESS_REFUSALS[403],
  );
}

/**
 * Whether a support-access session may not make this call: every sensitive call (for a sensitive-when route, when
 * this request is one), and every route marked `supportSession: 'refused'`.
 */
export function refusedInSupportSession(
  access: AccessRule,
  request: { body?: unknown; query?: unknown; params?: unknown },
): boolean {
  if (access.kind !== 'roles') return false;
  if (access.refusedInSupportSession) return true;
  if (!access.stepUp) return false;
  return access.stepUp.when ? access.stepUp.when(request) : true;
}

/**
 * Anyone may call it. `session: 'optional'`: it reads the caller's own access token when one is sent;
 * `refreshCookie`: it takes the refresh token cookie (POST /refresh).
 */
Access.public = (options: { session?: 'optional'; refreshCookie?: true } = {}) =>
  declare(
    { kind: 'public', ...options },
    [...(options.session ? ['bearer' as const] : []), ...(options.refreshCookie ? ['refreshCookie' as const] : [])],
    options.session === 'optional',
  );

/** Back-end systems, by the X-Api-Key header; refused while SERVICE_API_KEY is not configured. */
Access.serviceKey = () => declare({ kind: 'service' }, ['service']);

/** An organisation's directory (SCIM 2.0), by one of that organisation's provisioning tokens, never a user token. */
Access.scim = () => declare({ kind: 'scim' }, ['provisioning']);

/**
 * The holder of the challenge token of this sign-in step. `optional`: the route also answers without one (the
 * guard then refuses nothing and `@CurrentChallenge()` says whether one was given and whose it is).
 */
Access.challenge = (step: ChallengeStep, options: { optional?: true } = {}) =>
  declare({ kind: 'challenge', step, optional: options.optional === true }, ['challenge'], options.optional === true);

/**
 * The route's one @Access rule (on the handler, else its controller); undefined for a route that states none,
 * which the roles guard refuses. Read through the RouteReflector, which remembers it per route.
 */
export function accessOf(reflector: Reflector, context: ExecutionContext): AccessRule | undefined {
  return reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_KEY, [context.getHandler(), context.getClass()]);
}
