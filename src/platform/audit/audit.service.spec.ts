import { Role } from '../../shared/roles';
import { createOrganisation, createUser } from '../../../test/utils/factories';
import { callerOf, SERVICE_DATABASES, serviceApp } from '../../../test/utils/service-tier';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InsightsFailure } from '../../administration/insights/entities/insights-failure.entity';
import { AUDIT_RECORDED, AuditRecorded } from './audit-recorded';
import { AuditRecord, AuditService } from './audit.service';

describe.each(SERVICE_DATABASES)('AuditService on %s', (database) => {
  const t = serviceApp(database);
  const audit = () => t().app.get(AuditService);

  async function organisationWithAdmin() {
    const org = await createOrganisation(t());
    const admin = await createUser(t(), org, { roleId: Role.SITE_ADMIN });
    return { org, admin, caller: callerOf(admin) };
  }

  it('an event commits and rolls back with the change it describes', async () => {
    const { admin, caller } = await organisationWithAdmin();
    await audit()
      .manager.transaction(async (tx) => {
        await audit().record(tx, { type: 'ROLE_CHANGED', actor: admin, target: admin, summary: 'rolled back' });
        throw new Error('the change failed');
      })
      .catch(() => undefined);
    await audit().manager.transaction((tx) =>
      audit().record(tx, { type: 'ROLE_CHANGED', actor: admin, target: admin, summary: 'committed' }),
    );
    const page = await audit().list(caller, {});
    expect(page.items.map((e) => e.summary)).toEqual(['committed']);
  });

  it("its handlers write in the event's transaction, and a handler's failure fails the event", async () => {
    const { org, admin, caller } = await organisationWithAdmin();
    const failedSignIn = (summary: string): AuditRecord => ({
      type: 'SIGN_IN_FAILED',
      actor: 'anonymous',
      target: admin,
      summary,
      signIn: { reason: 'WRONG_PASSWORD' },
    });
    const counted = async () =>
      (await t().db.getRepository(InsightsFailure).findBy({ organisationId: org.id })).map((f) => f.n);
    // The insights count failed sign-ins in the transaction of their event: undone with it.
    await audit()
      .manager.transaction(async (tx) => {
        await audit().record(tx, failedSignIn('rolled back'));
        throw new Error('the change failed');
      })
      .catch(() => undefined);
    expect(await counted()).toEqual([]);
    await audit().record(audit().manager, failedSignIn('counted'));
    expect(await counted()).toEqual([1]);
    // A handler that throws fails the event's write, and what the handlers before it wrote.
    const refuse = ({ record }: AuditRecorded) => {
      if (record.summary === 'refused') throw new Error('the handler failed');
    };
    const emitter = t().app.get(EventEmitter2);
    emitter.on(AUDIT_RECORDED, refuse);
    try {
      await expect(audit().record(audit().manager, failedSignIn('refused'))).rejects.toThrow('the handler failed');
    } finally {
      emitter.off(AUDIT_RECORDED, refuse);
    }
    expect(await counted()).toEqual([1]);
    expect((await audit().list(caller, {})).items.map((e) => e.summary)).toEqual(['counted']);
  });

  it('never stores a secret among the changes', async () => {
    const { admin, caller } = await organisationWithAdmin();
    await audit().record(audit().manager, {
      type: 'PASSWORD_CHANGED',
      actor: admin,
      target: admin,
      summary: 'changed',
      changes: {
        firstName: { from: 'A', to: 'B' },
        password: { from: 'old', to: 'new' },
        mfaSecret: { from: null, to: 'x' },
        refreshToken: { from: 'r', to: 's' },
      },
    });
    const [event] = (await audit().list(caller, {})).items;
    expect(event.changes).toEqual({ firstName: { from: 'A', to: 'B' } });
  });

  it("an organisation's administrator sees its events only; E-Support sees every organisation's", async () => {
    const one = await organisationWithAdmin();
    const two = await organisationWithAdmin();
    for (const { admin } of [one, two])
      await audit().record(audit().manager, {
        type: 'ROLE_CHANGED',
        actor: admin,
        target: admin,
        summary: admin.email,
      });
    expect((await audit().list(one.caller, {})).items.map((e) => e.summary)).toEqual([one.admin.email]);
    const vendor = await createOrganisation(t(), { isVendor: true });
    const support = callerOf(await createUser(t(), vendor, { roleId: Role.E_SUPPORT }));
    const seen = (await audit().list(support, { pageSize: 100 })).items.map((e) => e.summary);
    expect(seen).toEqual(expect.arrayContaining([one.admin.email, two.admin.email]));
  });

  it('search text is taken literally (% and _ match themselves)', async () => {
    const { admin, caller } = await organisationWithAdmin();
    for (const summary of ['50% done', '50 done', 'a_b', 'axb'])
      await audit().record(audit().manager, { type: 'ROLE_CHANGED', actor: admin, target: admin, summary });
    const found = async (searchText: string) =>
      (await audit().list(caller, { searchText })).items.map((e) => e.summary).sort();
    expect(await found('50%')).toEqual(['50% done']);
    expect(await found('a_b')).toEqual(['a_b']);
  });

  it('the export walks every matching event, newest first, in batches', async () => {
    const { admin, caller } = await organisationWithAdmin();
    for (let i = 0; i < 5; i++)
      await audit().record(audit().manager, { type: 'ROLE_CHANGED', actor: admin, target: admin, summary: `e${i}` });
    const all: string[] = [];
    for await (const batch of audit().exportBatches(caller, {})) all.push(...batch.map((e) => e.summary));
    expect(all).toHaveLength(5);
    expect(new Set(all).size).toBe(5);
  });
});
