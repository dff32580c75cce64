import { Column, DataSource, Entity, Index } from 'typeorm';
import { sha256 } from '../crypto/secrets';
import { Organisation } from '../database/entities/organisation.entity';
import { AuthUser } from '../web/auth-user';
import { Role } from '../../shared/roles';
import { IssuedSecretColumns } from './issued-secret.columns';
import { IssuedSecrets } from './issued-secrets';

@Entity('test_secrets')
class TestSecret extends IssuedSecretColumns {
  @Index('IDX_test_secrets_hash', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  secretHash!: string;
}

const RULES = { prefix: 'tst_', max: 2, messages: { vendor: 'no vendor', tooMany: 'too many', notFound: 'gone' } };

function caller(organisationId: number, roles: Role[] = [Role.SITE_ADMIN]): AuthUser {
  return {
    id: 1,
    email: 'admin@example.test',
    organisationId,
    sessionId: 's',
    roles,
    isMFAEnforced: false,
    isMFAEnabled: false,
    hasPasskey: false,
    authenticatedAt: new Date(),
    signInMethod: 'password',
  };
}

describe('IssuedSecrets: an organisation’s secrets kept as their hash, within a maximum', () => {
  let db: DataSource;
  let secrets: IssuedSecrets<TestSecret>;
  let org: Organisation;
  const audited: string[] = [];
  const audit = async (_tx: unknown, row: TestSecret) => void audited.push(row.name);

  beforeAll(async () => {
    db = await new DataSource({
      type: 'sqlite',
      database: ':memory:',
      entities: [Organisation, TestSecret],
      synchronize: true,
    }).initialize();
    secrets = new IssuedSecrets(db.getRepository(TestSecret), db.getRepository(Organisation), RULES);
    org = await db.getRepository(Organisation).save({ code: 'ACME', name: 'Acme' });
    await db.getRepository(Organisation).save({ code: 'VENDOR', name: 'Vendor', isVendor: true });
  });
  afterAll(() => db.destroy());

  it('issues a prefixed secret, keeps only its hash, audits it, and refuses past the maximum', async () => {
    const made = await secrets.issue(org, (_s, hash) => ({ name: 'one', secretHash: hash }), audit);
    expect(made.secret).toMatch(/^tst_.{30,}$/);
    expect(made.row.secretHash).toBe(sha256(made.secret));
    expect(JSON.stringify(await secrets.read(made.row.id))).not.toContain(made.secret);
    await secrets.issue(org, (_s, hash) => ({ name: 'two', secretHash: hash }), audit);
    await expect(secrets.issue(org, (_s, hash) => ({ name: 'three', secretHash: hash }), audit)).rejects.toMatchObject({
      message: 'too many',
    });
    expect(audited).toEqual(['one', 'two']);
    expect((await secrets.list(org)).map((r) => r.name)).toEqual(['one', 'two']);
  });

  it('finds the organisation of its caller, never the vendor’s, and revokes only what the caller may see', async () => {
    expect((await secrets.organisationFor(caller(org.id))).id).toBe(org.id);
    const vendor = await db.getRepository(Organisation).findOneByOrFail({ code: 'VENDOR' });
    await expect(secrets.organisationFor(caller(vendor.id))).rejects.toMatchObject({ message: 'no vendor' });
    const [first] = await secrets.list(org);
    await expect(secrets.revoke(caller(vendor.id), first.id, audit)).rejects.toMatchObject({ message: 'gone' });
    await secrets.revoke(caller(org.id), first.id, audit);
    await expect(secrets.revoke(caller(org.id), first.id, audit)).rejects.toMatchObject({ message: 'gone' });
    expect((await secrets.list(org)).map((r) => r.name)).toEqual(['two']);
  });
});
