import { isIP } from 'node:net';
import { AppException } from '../../platform/web/app.exception';
import { isPublicAddress } from '../../platform/web/http/safe-fetch';
import { INTEGRATION_MESSAGES } from '../../shared/administration/integrations';

/**
 * A receiver's address as a customer types it: https (plain http only with ALLOW_PRIVATE_NETWORKS), no user or
 * password in it, and not an address that is plainly not public. Names are resolved, and checked, at each connection.
 */
export function receiverUrl(text: string, allowPrivateNetworks: boolean): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw AppException.badRequest(INTEGRATION_MESSAGES.URL_INVALID);
  }
  const protocols = allowPrivateNetworks ? ['https:', 'http:'] : ['https:'];
  if (!protocols.includes(url.protocol) || url.username || url.password)
    throw AppException.badRequest(INTEGRATION_MESSAGES.URL_INVALID);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const inward = host === 'localhost' || host.endsWith('.localhost') || (isIP(host) !== 0 && !isPublicAddress(host));
  if (inward && !allowPrivateNetworks) throw AppException.badRequest(INTEGRATION_MESSAGES.URL_PRIVATE);
  return url.toString();
}

/**
 * A receiver's address as the audit trail names it: scheme, host and path, at most 300 characters. The query is
 * left out: receivers often carry a key there, and the trail is read by more people than manage integrations.
 */
export function auditedUrl(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`.slice(0, 300);
}
