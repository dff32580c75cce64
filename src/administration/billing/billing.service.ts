import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { AppException } from '../../platform/web/app.exception';
import { RequestContext } from '../../platform/web/request-context';
import { AuthUser } from '../../platform/web/auth-user';
import { ContactProfile } from '../../shared/api-types';
import { ORG_ADMIN_MESSAGES as M } from '../../shared/administration/organisation-admin';
import { ContactProfileDto, CreateContactProfileDto, UpdateContactProfileDto } from './dto/contact-profile.dto';
import { ContactKind, ContactProfileEntity } from './entities/contact-profile.entity';

const FIELDS = ['fullName', 'jobTitle', 'department', 'basedIn', 'email', 'mobile'] as const;

/** The primary and billing contacts of the caller's own organisation (spec 001 §2.11, §7). */
@Injectable()
export class BillingService {
  constructor(
    @InjectRepository(ContactProfileEntity) private readonly contacts: Repository<ContactProfileEntity>,
    private readonly audit: AuditService,
  ) {}

  /** The saved contact, or an empty one (id null) when none was saved yet. */
  async read(caller: AuthUser, kind: ContactKind): Promise<ContactProfile> {
    const found = await this.contacts.findOneBy({ organisationId: caller.organisationId, kind });
    return found
      ? toProfile(found)
      : { id: null, fullName: '', jobTitle: '', department: '', basedIn: '', email: '', mobile: '' };
  }

  async create(
    caller: AuthUser,
    kind: ContactKind,
    dto: CreateContactProfileDto,
    client?: RequestContext,
  ): Promise<ContactProfile> {
    if (await this.contacts.existsBy({ organisationId: caller.organisationId, kind }))
      throw AppException.conflict(M.CONTACT_EXISTS);
    const row = this.contacts.create({ organisationId: caller.organisationId, kind, ...values(dto) });
    return this.save(caller, kind, null, row, client);
  }

  /** Another organisation's contact (or the other kind) is answered like a missing one. */
  async update(
    caller: AuthUser,
    kind: ContactKind,
    dto: UpdateContactProfileDto,
    client?: RequestContext,
  ): Promise<ContactProfile> {
    const found = await this.contacts.findOneBy({ id: dto.id, organisationId: caller.organisationId, kind });
    if (!found) throw AppException.notFound(M.CONTACT_NOT_FOUND);
    const before = toProfile(found);
    Object.assign(found, values(dto));
    return this.save(caller, kind, before, found, client);
  }

  /** Saves the contact and its audit entry in one transaction. */
  private async save(
    caller: AuthUser,
    kind: ContactKind,
    before: ContactProfile | null,
    row: ContactProfileEntity,
    client?: RequestContext,
  ): Promise<ContactProfile> {
    const saved = await this.contacts.manager.transaction(async (tx) => {
      const after = await tx.getRepository(ContactProfileEntity).save(row);
      await this.recordSaved(tx, caller, kind, before, after, client);
      return after;
    });
    return toProfile(saved);
  }

  /** Audit: the fields that changed, before → after. */
  private recordSaved(
    tx: EntityManager,
    caller: AuthUser,
    kind: ContactKind,
    before: ContactProfile | null,
    after: ContactProfileEntity,
    client?: RequestContext,
  ) {
    const changes = Object.fromEntries(
      FIELDS.filter((f) => (before?.[f] ?? '') !== after[f]).map((f) => [
        f,
        { from: before?.[f] ?? null, to: after[f] },
      ]),
    );
    const label = kind === 'PRIMARY' ? 'Primary contact' : 'Billing contact';
    return this.audit.record(tx, {
      type: 'BILLING_CONTACT_SAVED',
      actor: caller,
      organisationId: caller.organisationId,
      client,
      summary: `${label} saved`,
      changes,
    });
  }
}

function values(dto: ContactProfileDto): Pick<ContactProfileEntity, (typeof FIELDS)[number]> {
  return {
    fullName: dto.fullName,
    jobTitle: dto.jobTitle ?? '',
    department: dto.department ?? '',
    basedIn: dto.basedIn ?? '',
    email: dto.email ?? '',
    mobile: dto.mobile ?? '',
  };
}

function toProfile(e: ContactProfileEntity): ContactProfile {
  return {
    id: e.id,
    fullName: e.fullName,
    jobTitle: e.jobTitle,
    department: e.department,
    basedIn: e.basedIn,
    email: e.email,
    mobile: e.mobile,
  };
}
