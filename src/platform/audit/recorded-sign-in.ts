import { AuditEventType } from '../../shared/audit';
import { SignInMethod } from '../../shared/administration/insights';
import type { AuditParty, AuditRecord } from './audit.service';

const SUCCEEDED: ReadonlySet<AuditEventType> = new Set(['SIGN_IN_SUCCEEDED', 'SSO_SIGN_IN']);
const FAILED: ReadonlySet<AuditEventType> = new Set(['SIGN_IN_FAILED', 'SIGN_IN_LOCKED', 'SSO_SIGN_IN_REFUSED']);

/** The organisation an event is about: the one its writer named, else its target's; null for nobody's. */
export function organisationAbout(record: AuditRecord): number | null {
  if (record.organisationId !== undefined) return record.organisationId;
  return record.target?.organisationId ?? null;
}

/** A sign-in, or a refused one, as an audit event records it. */
export interface RecordedSignIn {
  outcome: 'succeeded' | 'failed';
  method: SignInMethod;
  organisationId: number;
  /** The account signed in to, when it is one of that organisation's. */
  account: AuditParty | null;
}

/** The sign-in an event records (a sign-in event with its `signIn` details, about an organisation), or null. */
export function recordedSignIn(record: AuditRecord): RecordedSignIn | null {
  const organisationId = organisationAbout(record);
  if (organisationId === null || !record.signIn) return null;
  const outcome = SUCCEEDED.has(record.type) ? 'succeeded' : FAILED.has(record.type) ? 'failed' : null;
  if (!outcome) return null;
  const account = record.target && record.target.organisationId === organisationId ? record.target : null;
  return { outcome, method: record.signIn.method ?? 'password', organisationId, account };
}
