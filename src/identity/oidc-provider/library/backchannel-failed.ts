import { EventName } from '../../../platform/events';

export interface BackchannelFailed {
  /** The application the logout token was for. */
  clientId: string;
  sub: string;
  sid: string;
  error: unknown;
}

/**
 * The OpenID library failed to deliver a back-channel logout token (its `backchannel.error`): the logout service
 * delivers it again later. Published with `publish` (every handler starts at once; a failure is logged).
 */
export const OIDC_BACKCHANNEL_FAILED: EventName<BackchannelFailed> = 'oidc.backchannel-failed';
