import { AuditEvent } from '../../platform/audit/entities/audit-event.entity';
import { ERROR_CODES } from '../../shared/messages';
import { Role } from '../../shared/roles';
import { User } from '../../platform/database/entities/user.entity';
import { createOrganisation, createUser } from '../../../test/utils/factories';
import { siteAdminPayload } from '../../../test/utils/org-admin';
import { lastMailTo } from '../../../test/utils/outbox';
import { callerOf, refusalOf, SERVICE_DATABASES, serviceApp } from '../../../test/utils/service-tier';
import { CreateSiteAdminDto } from './dto/create-site-admin.dto';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { OrganisationsService } from './organisations.service';

describe.each(SERVICE_DATABASES)('OrganisationsService on %s', (database) => {
  const t = serviceApp(database);
  const service = () => t().app.get(OrganisationsService);
  const payload = (overrides: Record<string, unknown> = {}) => siteAdminPayload(overrides) as CreateSiteAdminDto;

  async function support() {
    const vendor = await createOrganisation(t(), { isVendor: true });
    return callerOf(await createUser(t(), vendor, { roleId: Role.E_SUPPORT }));
  }

  it('opens an organisation with its site admin, who must change the e-mailed temporary password and use MFA', async () => {
    const caller = await support();
    const dto = payload({ masterTaxManagerApplicationIds: [1] });
    const created = await service().createSiteAdmin(caller, dto);
    const org = await t().db.getRepository(Organisation).findOneByOrFail({ id: created.organisationId });
    expect(org).toMatchObject({ code: dto.organizationCode, name: dto.organizationName, accountType: 'ORGANIZATION' });
    expect(org.applications).toEqual(['TAX_MANAGER', 'CA_VIEWER']);
    expect(await t().db.getRepository(User).findOneByOrFail({ id: created.userId })).toMatchObject({
      email: dto.userEmail,
      roleId: Role.SITE_ADMIN,
      isMFAEnforced: true,
      mustChangePassword: true,
    });
    expect((await lastMailTo(t().dataDir, dto.userEmail))?.text).toMatch(/Temporary password: \S+/);
    expect(
      await t().db.getRepository(AuditEvent).countBy({ organisationId: org.id, type: 'ORGANISATION_CREATED' }),
    ).toBe(1);
  });

  it('an individual account goes by its owner’s e-mail', async () => {
    const dto = payload({ accountType: 'Individual' });
    const created = await service().createSiteAdmin(await support(), dto);
    expect(await t().db.getRepository(Organisation).findOneByOrFail({ id: created.organisationId })).toMatchObject({
      name: dto.userEmail,
      accountType: 'INDIVIDUAL',
    });
  });

  it('refuses a code taken in any letter case, or an e-mail in use, and creates nothing', async () => {
    const caller = await support();
    const first = payload();
    await service().createSiteAdmin(caller, first);
    const organisations = await t().db.getRepository(Organisation).count();
    const sameCode = payload({ organizationCode: first.organizationCode.toLowerCase() });
    expect(await refusalOf(service().createSiteAdmin(caller, sameCode))).toEqual({
      status: 409,
      code: ERROR_CODES.DUPLICATE_ORGANISATION_CODE,
    });
    expect(await refusalOf(service().createSiteAdmin(caller, payload({ userEmail: first.userEmail })))).toEqual({
      status: 409,
      code: ERROR_CODES.DUPLICATE_EMAIL,
    });
    expect(await t().db.getRepository(Organisation).count()).toBe(organisations);
  });

  it('of parallel creations with one code, exactly one succeeds', async () => {
    const caller = await support();
    const code = payload().organizationCode;
    const results = await Promise.allSettled(
      [...Array(4)].map((_, i) =>
        service().createSiteAdmin(
          caller,
          payload({ organizationCode: code, userEmail: `p${i}-${code}@new.example.com` }),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it("an E-Support account is made in the vendor's organisation under the support domain", async () => {
    const caller = await support();
    const created = await service().createESupport(caller, { userName: `helper${Date.now()}` });
    expect(created.email).toBe(`${created.email.split('@')[0]}@${t().config.supportEmailDomain}`);
    expect(await t().db.getRepository(User).findOneByOrFail({ id: created.userId })).toMatchObject({
      organisationId: caller.organisationId,
      roleId: Role.E_SUPPORT,
      mustChangePassword: true,
    });
    expect(await refusalOf(service().createESupport(caller, { userName: created.email.split('@')[0] }))).toMatchObject({
      status: 409,
    });
  });
});
