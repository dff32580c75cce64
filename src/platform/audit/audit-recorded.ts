import { AuditEventItem } from '../../shared/audit';
import { EventName, InTransaction } from '../events';
import type { AuditRecord } from './audit.service';

/**
 * Every audit event, as it is recorded: published by AuditService.record inside the transaction of the event (one
 * is opened for an event recorded outside any), so what a handler writes commits with the event or not at all. The
 * insights count sign-ins with it, the integrations write webhook and log-stream deliveries (an outbox).
 */
export interface AuditRecorded extends InTransaction {
  /** The event as its writer recorded it. */
  record: AuditRecord;
  /** The event as GET /api/audit-events lists it, with the id it was stored under. */
  item: AuditEventItem;
}

export const AUDIT_RECORDED: EventName<AuditRecorded> = 'audit.recorded';
