import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AppException } from '../common/app.exception';
import { AuthUser } from '../common/auth-user';
import { ContactProfile } from '../shared/api-types';
import { ORG_ADMIN_MESSAGES as M } from '../shared/organisation-admin';
import { ContactProfileDto, CreateContactProfileDto, UpdateContactProfileDto } from './dto/contact-profile.dto';
import { ContactKind, ContactProfileEntity } from './entities/contact-profile.entity';

const FIELDS = ['fullName', 'jobTitle', 'department', 'basedIn', 'email', 'mobile'] as const;

/** The primary and billing contacts of the caller's own organisation (spec 001 §2.11, §7). */
@Injectable()
export class BillingService {
  constructor(@InjectRepository(ContactProfileEntity) private readonly contacts: Repository<ContactProfileEntity>) {}

  /** The saved contact, or an empty one (id null) when none was saved yet. */
  async read(caller: AuthUser, kind: ContactKind): Promise<ContactProfile> {
    const found = await this.contacts.findOneBy({ organisationId: caller.organisationId, kind });
    return found ? toProfile(found) : { id: null, fullName: '', jobTitle: '', department: '', basedIn: '', email: '', mobile: '' };
  }

  async create(caller: AuthUser, kind: ContactKind, dto: CreateContactProfileDto): Promise<ContactProfile> {
    if (await this.contacts.existsBy({ organisationId: caller.organisationId, kind })) throw AppException.conflict(M.CONTACT_EXISTS);
    const saved = await this.contacts.save(this.contacts.create({ organisationId: caller.organisationId, kind, ...values(dto) }));
    return toProfile(saved);
  }

  /** Another organisation's contact (or the other kind) is answered like a missing one. */
  async update(caller: AuthUser, kind: ContactKind, dto: UpdateContactProfileDto): Promise<ContactProfile> {
    const found = await this.contacts.findOneBy({ id: dto.id, organisationId: caller.organisationId, kind });
    if (!found) throw AppException.notFound(M.CONTACT_NOT_FOUND);
    Object.assign(found, values(dto));
    return toProfile(await this.contacts.save(found));
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
  return { id: e.id, fullName: e.fullName, jobTitle: e.jobTitle, department: e.department, basedIn: e.basedIn, email: e.email, mobile: e.mobile };
}
