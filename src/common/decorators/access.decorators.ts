import { Reflector } from '@nestjs/core';
import { SetMetadata } from '@nestjs/common';
import { Role } from '../../shared/roles';

/** The roles that may call a route. Every route that is not @Public() or @ServiceApi() must carry it. */
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
