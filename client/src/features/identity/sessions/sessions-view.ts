import type { UserSessionRow } from '@shared/api-types';
import { ORG_ADMIN_MESSAGES as M } from '@shared/administration/organisation-admin';

/** Spec 001 §4: severity success for online, warning for offline. */
export function severity(status: UserSessionRow['status']): 'success' | 'warning' {
  return status === 'online' ? 'success' : 'warning';
}

/** Spec 001 §4/§8: above the maximum an error banner, at it a warning banner, below none. */
export function concurrencyBanner(
  rows: UserSessionRow[],
  max: number,
): { status: 'error' | 'warning'; text: string } | null {
  const online = rows.filter((r) => r.status === 'online').length;
  if (online > max) return { status: 'error', text: M.SESSIONS_EXCEEDED };
  if (online === max) return { status: 'warning', text: M.SESSIONS_REACHED };
  return null;
}
