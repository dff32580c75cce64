import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * Only the account lifecycle writes an account's existence, access or roles (docs/architecture.md, 'An account's
 * life'): this reads the product code and fails on such a write anywhere else, so a new source of accounts
 * (invitations, say) goes through the lifecycle and keeps its limit, rules, audit and events.
 */
const SRC = join(__dirname, '..', '..', '..');
const LIFECYCLE = join('identity', 'users', 'lifecycle') + sep;

function* productFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* productFiles(full);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) yield full;
  }
}

/** How product code names a repository of users: a service's field, or a transaction's repository in a variable. */
const USER_REPOSITORIES = [/private readonly (\w+): Repository<User>/g, /(\w+) = \w+\.getRepository\(User\)/g];
const WRITE = 'save|insert|delete|remove|softDelete|upsert';
/** The columns of an account's access, roles and organisation. */
const OWNED_COLUMNS = /\b(isDisabled|isBlocked|roleId|isAdministrator|organisationId)\s*:/;

/** What the lifecycle owns that this code writes: a user row created or deleted, or access and roles changed. */
function ownedWritesIn(text: string): string[] {
  const found: string[] = [];
  const receivers = ['getRepository\\(User\\)'];
  for (const pattern of USER_REPOSITORIES)
    for (const [, name] of text.matchAll(pattern)) receivers.push(`(?:this\\.)?${name}`);
  for (const receiver of receivers) {
    if (new RegExp(`\\b${receiver}\\s*\\.(${WRITE})\\(`).test(text)) found.push('a user row created or deleted');
    for (const [, args] of text.matchAll(new RegExp(`\\b${receiver}\\s*\\.update\\(([^;]*)`, 'g')))
      if (OWNED_COLUMNS.test(args)) found.push("an account's access, roles or organisation changed");
  }
  if (/\.(insert\(\)\s*\.into|delete\(\)\s*\.from)\(\s*(User\b|'users')/.test(text))
    found.push('a user row created or deleted');
  return found;
}

describe('writes of an account’s existence, access and roles', () => {
  it('live in src/identity/users/lifecycle/ only', () => {
    const elsewhere: string[] = [];
    for (const file of productFiles(SRC)) {
      const path = relative(SRC, file);
      if (path.startsWith(LIFECYCLE)) continue;
      for (const what of ownedWritesIn(readFileSync(file, 'utf8'))) elsewhere.push(`${path}: ${what}`);
    }
    expect(elsewhere).toEqual([]);
  });

  it.each([
    ['tx.getRepository(User).save(tx.getRepository(User).create({ email }))'],
    ['await tx.getRepository(User).delete({ id })'],
    ['await tx.getRepository(User).update({ id: user.id }, { isDisabled: true })'],
    [
      'const repo = tx.getRepository(User);\nawait repo.update({ id }, { roleId: Role.VIEWER, isAdministrator: false })',
    ],
    ['await tx.createQueryBuilder().insert().into(User).values(row).execute()'],
    ['constructor(@InjectRepository(User) private readonly users: Repository<User>) {}\nthis.users.save(row)'],
  ])('is noticed in %p', (code) => {
    expect(ownedWritesIn(code)).not.toEqual([]);
  });

  it('leaves other writes of a user row alone (a sign-in time, a passkey flag)', () => {
    expect(ownedWritesIn('await tx.getRepository(User).update({ id: user.id }, { lastLoginAt: now })')).toEqual([]);
    expect(ownedWritesIn('await tx.getRepository(User).update({ id: user.id }, { hasPasskey: left > 0 })')).toEqual([]);
  });
});
