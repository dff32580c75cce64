import { Reflector } from '@nestjs/core';
import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiForbiddenResponse } from '@nestjs/swagger';
import { ErrorResponse } from '../error-response';
import { ERROR_CODES } from '../../shared/messages';
import { Role } from '../../shared/roles';

/** The roles that may call a route. Every route that is not @Public(), @ServiceApi() or @ScimApi() must carry it. */
export const Roles = Reflector.createDecorator<readonly Role[]>();

export const IS_PUBLIC_KEY = 'isPublic';
/** Opts a route out of authentication (login, refresh, health, ...). */
export const Public = () => SetMetadata(IS_PUBLIC_KEY, true);

export const IS_SERVICE_API_KEY = 'isServiceApi';
/** A route for other back-end systems, authenticated by the X-Api-Key header instead of a user token. */
export const ServiceApi = () => SetMetadata(IS_SERVICE_API_KEY, true);

export const ALLOW_MFA_PENDING_KEY = 'allowMfaPending';
/**
 * A route an account whose MFA is enforced but not yet enabled may still use: its own profile,
 * the MFA enrolment calls, logout. Every other route refuses such an account until it enrols.
 */
export const AllowMfaPending = () => SetMetadata(ALLOW_MFA_PENDING_KEY, true);

/** What a sensitive route's marker says: always, or only when its request asks for something sensitive. */
export interface SensitiveActionOptions {
  /**
   * Decides from the request as it arrives (before validation) whether this call is sensitive, e.g. a role change
   * that grants Administrator or Site Admin. Left out: every call of the route is.
   */
  when?: (request: { body?: unknown; query?: unknown; params?: unknown }) => boolean;
}

export const SENSITIVE_ACTION_KEY = 'sensitiveAction';
/**
 * A sensitive action (CONTRACT 7): the caller must have proved who they are within STEP_UP_MINUTES (the sign-in that
 * opened the session, or POST /auth/step-up), else `403 STEP_UP_REQUIRED`, which the client answers with its
 * 'Confirm it's you' dialog and a retry. Checked by the global StepUpGuard after the role check; put it on any write
 * route whose misuse from an unattended session would hurt (exports, MFA and passkey removal, privileged roles,
 * identity-provider connections, domains, provisioning tokens).
 */
export function RequiresStepUp(options: SensitiveActionOptions = {}) {
  return applyDecorators(
    SetMetadata(SENSITIVE_ACTION_KEY, options),
    ApiForbiddenResponse({
      description: `${ERROR_CODES.STEP_UP_REQUIRED}: the caller has not proved who they are within STEP_UP_MINUTES (POST /auth/step-up), or lacks the role.`,
      type: ErrorResponse,
    }),
  );
}

export const IS_SCIM_API_KEY = 'isScimApi';
/**
 * A route an organisation's directory calls (SCIM 2.0), authenticated by one of that organisation's provisioning
 * tokens as `Authorization: Bearer <token>` instead of a user token; the caller is `@CurrentScimToken()`.
 */
export const ScimApi = () => SetMetadata(IS_SCIM_API_KEY, true);
