/** What the audit feature offers the rest of the server: other features import it from here, never from its files. */
export { AuditModule } from './audit.module';
export { AuditService } from './audit.service';
export type { AuditChanges, AuditRecord, AuditTokenActor } from './audit.service';
export { AUDIT_RECORDED } from './audit-recorded';
export type { AuditRecorded } from './audit-recorded';
export { organisationAbout, recordedSignIn } from './recorded-sign-in';
export type { RecordedSignIn } from './recorded-sign-in';
