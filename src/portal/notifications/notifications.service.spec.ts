import { createOrganisation, createUser } from '../../../test/utils/factories';
import { callerOf, SERVICE_DATABASES, serviceApp } from '../../../test/utils/service-tier';
import { NotificationsService } from './notifications.service';
import { NotificationContent } from '../../shared/portal/notifications';

describe.each(SERVICE_DATABASES)('NotificationsService on %s', (database) => {
  const t = serviceApp(database);
  const service = () => t().app.get(NotificationsService);
  const status = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: { getStatus(): number }) => e.getStatus(),
    );
  const note = (summary: string) => ({ type: 'RELEASE_NOTES' as const, content: { summary } });

  async function organisationOfTwo() {
    const org = await createOrganisation(t());
    const [a, b] = [await createUser(t(), org), await createUser(t(), org)];
    return { org, a: callerOf(a), b: callerOf(b) };
  }

  it("shows a user their own and their organisation's notifications, newest first, never another's", async () => {
    const { org, a, b } = await organisationOfTwo();
    const other = await organisationOfTwo();
    await service().publish({ ...note('for everyone'), organisationId: org.id });
    await service().publish({ ...note('for a'), userId: a.id });
    await service().publish({ ...note('elsewhere'), organisationId: other.org.id });
    const summaries = async (caller: typeof a) => (await service().list(caller)).map((n) => n.content.summary);
    expect(await summaries(a)).toEqual(['for a', 'for everyone']);
    expect(await summaries(b)).toEqual(['for everyone']);
    expect(await summaries(other.a)).toEqual(['elsewhere']);
  });

  it('read and dismissed are per user: one user dismissing an organisation-wide notification leaves it for the others', async () => {
    const { org, a, b } = await organisationOfTwo();
    const { notificationId } = await service().publish({ ...note('shared'), organisationId: org.id });
    await service().markRead(a, notificationId);
    expect((await service().list(a))[0]).toMatchObject({ notificationId, read: true });
    expect((await service().list(b))[0]).toMatchObject({ notificationId, read: false });
    await service().dismiss(a, notificationId);
    expect(await service().list(a)).toEqual([]);
    expect(await service().list(b)).toHaveLength(1);
  });

  it('dismissing all hides what is visible now; what arrives after shows', async () => {
    const { org, a } = await organisationOfTwo();
    await service().publish({ ...note('one'), organisationId: org.id });
    await service().publish({ ...note('two'), userId: a.id });
    await service().dismissAll(a);
    expect(await service().list(a)).toEqual([]);
    await service().publish({ ...note('three'), organisationId: org.id });
    expect((await service().list(a)).map((n) => n.content.summary)).toEqual(['three']);
  });

  it("another organisation's notification or another user's cannot be read or dismissed: 404, nothing changes", async () => {
    const { a, b } = await organisationOfTwo();
    const other = await organisationOfTwo();
    const { notificationId: foreign } = await service().publish({ ...note('theirs'), organisationId: other.org.id });
    const { notificationId: privateToB } = await service().publish({ ...note('b only'), userId: b.id });
    expect(await status(service().markRead(a, foreign))).toBe(404);
    expect(await status(service().dismiss(a, privateToB))).toBe(404);
    expect(await service().list(other.a)).toHaveLength(1);
    expect(await service().list(b)).toHaveLength(1);
  });

  it("publishing checks the target and the type's content rules", async () => {
    const { org, a } = await organisationOfTwo();
    const other = await organisationOfTwo();
    expect(await status(service().publish({ type: 'RELEASE_NOTES', content: {} }))).toBe(400);
    expect(await status(service().publish({ type: 'RELEASE_NOTES', content: {}, organisationId: org.id }))).toBe(400);
    expect(await status(service().publish({ ...note('x'), userId: a.id, organisationId: other.org.id }))).toBe(400);
    /** The status of release notes to the organisation with this content. */
    const releaseNotes = (content: NotificationContent) =>
      status(service().publish({ type: 'RELEASE_NOTES', organisationId: org.id, content }));
    expect(await releaseNotes({ summary: 'x', portfolioCode: 'P1' })).toBe(400);
    expect(await releaseNotes({ summary: 'x', downloadLink: 'javascript:alert(1)' })).toBe(400);
    expect(await service().list(a)).toEqual([]);
  });
});
