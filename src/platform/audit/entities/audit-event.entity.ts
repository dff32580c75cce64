import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DATE_TYPE } from '../../database/column-types';
import type { AuditActorKind, AuditEventType } from '../../../shared/audit';

/**
 * One audit event. Appended in the transaction of the change it describes and never updated;
 * only the retention purge deletes. `organisationId` is whose log the event belongs to (the target's
 * organisation, else the actor's); null for a failed sign-in of an unknown account (E-Support sees those).
 */
@Entity('audit_events')
@Index('IDX_audit_events_org_time', ['organisationId', 'occurredAt', 'id'])
@Index('IDX_audit_events_org_type_time', ['organisationId', 'type', 'occurredAt', 'id'])
@Index('IDX_audit_events_org_actor_time', ['organisationId', 'actorId', 'occurredAt', 'id'])
@Index('IDX_audit_events_org_target_time', ['organisationId', 'targetId', 'occurredAt', 'id'])
export class AuditEvent {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: DATE_TYPE })
  occurredAt!: Date;

  @Column({ type: 'varchar', length: 40 })
  type!: AuditEventType;

  @Column({ type: 'integer', nullable: true })
  organisationId!: number | null;

  @Column({ type: 'varchar', length: 10 })
  actorKind!: AuditActorKind;

  @Column({ type: 'integer', nullable: true })
  actorId!: number | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  actorEmail!: string | null;

  @Column({ type: 'integer', nullable: true })
  actorOrganisationId!: number | null;

  @Column({ type: 'integer', nullable: true })
  targetId!: number | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  targetEmail!: string | null;

  @Column({ type: 'integer', nullable: true })
  targetOrganisationId!: number | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip!: string | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  userAgent!: string | null;

  @Column({ type: 'varchar', length: 500 })
  summary!: string;

  /** In a support-access session: the member the E-Support account (the actor) acted for. */
  @Column({ type: 'integer', nullable: true })
  onBehalfOfId!: number | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  onBehalfOfEmail!: string | null;

  /** The support-access request the event was made under, or that it tells of. */
  @Column({ type: 'integer', nullable: true })
  supportAccessId!: number | null;

  /** JSON of the before → after pairs; never a password, token, secret or code. */
  @Column({ type: 'text', nullable: true })
  changes!: string | null;
}
