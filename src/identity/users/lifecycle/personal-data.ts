import { EntityManager, ObjectLiteral } from 'typeorm';
import { erasedUserLabel } from '../../../shared/administration/privacy';

/** The person an erasure removes: what identified them before their account became a tombstone. */
export interface ErasedPerson {
  id: number;
  organisationId: number;
  email: string;
  firstName: string;
  lastName: string;
  /** The address as the organisation's directory spelt it, when it manages the account. */
  directoryUserName: string | null;
}

/** How one table gives the person up, inside the erasure's transaction. */
export interface PersonalTable {
  /** What the table keeps about a person, and what erasure does with it (docs/privacy.md lists the same). */
  what: string;
  erase(tx: EntityManager, person: ErasedPerson): Promise<void>;
}

/** Erasure of a table whose rows are all the person's own (by "userId"): deleted. */
const deleteByUser =
  (table: string) =>
  (tx: EntityManager, p: ErasedPerson): Promise<void> =>
    run(tx, `DELETE FROM "${table}" WHERE "userId" = :id`, p);

/** Rows per statement when rewriting mentions: short statements, so that no writer waits long behind one. */
const SCRUB_BATCH = 500;

/**
 * Every table that holds a person's data, and how erasure removes the person from it: deleted, or rewritten so that
 * the e-mail address and the names read `Erased user #<id>`. The users row itself becomes the tombstone
 * (`AccountLifecycleService.erase`). The erasure e2e test reads every table of the schema afterwards and requires
 * each to be named here or in {@link NOT_PERSONAL_TABLES}: a new table that keeps personal data fails it until it is
 * listed, with how it is erased.
 */
export const PERSONAL_TABLES: Record<string, PersonalTable> = {
  refresh_tokens: {
    what: "the account's sessions' refresh tokens: deleted (the sessions have ended)",
    erase: (tx, p) =>
      run(
        tx,
        'DELETE FROM "refresh_tokens" WHERE "sessionId" IN (SELECT "id" FROM "sessions" WHERE "userId" = :id)',
        p,
      ),
  },
  sso_sessions: {
    what: "the provider's subject and ID token of the account's sessions: deleted",
    erase: (tx, p) =>
      run(tx, 'DELETE FROM "sso_sessions" WHERE "sessionId" IN (SELECT "id" FROM "sessions" WHERE "userId" = :id)', p),
  },
  sessions: {
    what: 'sessions (ended at erasure): kept without their address and browser, for the organisation’s counts',
    erase: (tx, p) => run(tx, 'UPDATE "sessions" SET "ip" = NULL, "userAgent" = NULL WHERE "userId" = :id', p),
  },
  sso_identities: {
    what: "the link to the person's account at the organisation's provider: deleted",
    erase: deleteByUser('sso_identities'),
  },
  sso_test_results: {
    what: "a provider test's result shown to the person who ran it: deleted",
    erase: deleteByUser('sso_test_results'),
  },
  passkeys: {
    what: 'passkeys: deleted',
    erase: deleteByUser('passkeys'),
  },
  webauthn_challenges: {
    what: 'passkey challenges under way: deleted',
    erase: deleteByUser('webauthn_challenges'),
  },
  mfa_trusted_devices: {
    what: 'trusted devices: deleted',
    erase: deleteByUser('mfa_trusted_devices'),
  },
  mfa_recovery_codes: {
    what: 'recovery codes: deleted',
    erase: deleteByUser('mfa_recovery_codes'),
  },
  password_reset_tokens: {
    what: 'password reset links: deleted',
    erase: deleteByUser('password_reset_tokens'),
  },
  not_me_links: {
    what: '"This wasn\'t me" links: deleted',
    erase: deleteByUser('not_me_links'),
  },
  sign_in_history: {
    what: 'sign-in history (times, addresses, browsers): deleted',
    erase: deleteByUser('sign_in_history'),
  },
  new_browser_mail: {
    what: 'when the person was last told of a sign-in from a new browser: deleted',
    erase: deleteByUser('new_browser_mail'),
  },
  known_browsers: {
    what: 'the browsers the person signed in from: deleted',
    erase: deleteByUser('known_browsers'),
  },
  sign_in_counters: {
    what: 'failed sign-in counters keyed by the address: deleted',
    erase: (tx, p) => run(tx, 'DELETE FROM "sign_in_counters" WHERE LOWER("key") LIKE :pattern', p),
  },
  notification_receipts: {
    what: 'which notifications the person read or dismissed: deleted',
    erase: deleteByUser('notification_receipts'),
  },
  notification_watermarks: {
    what: 'how far the person dismissed notifications: deleted',
    erase: deleteByUser('notification_watermarks'),
  },
  notifications: {
    what: "the person's own notifications: deleted; others' naming them: rewritten",
    erase: async (tx, p) => {
      await run(tx, 'DELETE FROM "notifications" WHERE "userId" = :id', p);
      await scrub(tx, p, 'notifications', ['content']);
    },
  },
  announcement_dismissals: {
    what: 'which announcements the person dismissed: deleted',
    erase: deleteByUser('announcement_dismissals'),
  },
  user_feedback: {
    what: 'feedback the person gave: deleted',
    erase: deleteByUser('user_feedback'),
  },
  oidc_consents: {
    what: 'the applications the person consented to (the OpenID provider): deleted',
    erase: deleteByUser('oidc_consents'),
  },
  oidc_records: {
    what: "the OpenID provider's codes, grants, tokens and sign-ins under way of the person: deleted (revoked at once)",
    erase: (tx, p) =>
      run(tx, 'DELETE FROM "oidc_records" WHERE "accountId" = :account OR LOWER("payload") LIKE :pattern', p),
  },
  oidc_clients: {
    what: 'who registered an application: rewritten',
    erase: (tx, p) => scrub(tx, p, 'oidc_clients', ['createdBy']),
  },
  user_group_members: {
    what: "the person's group memberships: deleted",
    erase: deleteByUser('user_group_members'),
  },
  invitations: {
    what: 'open invitations to the address: deleted; answered ones and those the person sent: rewritten',
    erase: async (tx, p) => {
      await run(
        tx,
        'DELETE FROM "invitations" WHERE "email" = :email AND "acceptedAt" IS NULL AND "revokedAt" IS NULL',
        p,
      );
      await scrub(tx, p, 'invitations', ['email', 'invitedByName'], '"invitedById" = :id OR "acceptedUserId" = :id');
    },
  },
  mail_outbox: {
    what: 'e-mails to the person: deleted; e-mails naming them: rewritten',
    erase: async (tx, p) => {
      await run(tx, 'DELETE FROM "mail_outbox" WHERE LOWER("to") = :email', p);
      await scrub(tx, p, 'mail_outbox', ['payload', 'replyTo', 'subject', 'text']);
    },
  },
  audit_events: {
    what: 'the audit trail: every event kept, the person named `Erased user #<id>` in each field that named them',
    erase: (tx, p) =>
      scrub(
        tx,
        p,
        'audit_events',
        ['actorEmail', 'targetEmail', 'onBehalfOfEmail', 'summary', 'changes'],
        '("actorKind" = \'user\' AND "actorId" = :id) OR "targetId" = :id OR "onBehalfOfId" = :id',
        (row, column, text) =>
          column === 'changes' && Number(row.targetId) === p.id ? profileRedacted(text, p) : text,
        ['targetId'],
      ),
  },
  support_access: {
    what: "E-Support's requests to act as the person: kept as the record of that access, the reason rewritten",
    erase: (tx, p) => scrub(tx, p, 'support_access', ['reason'], '"userId" = :id'),
  },
  integration_deliveries: {
    what: 'webhook and audit log stream bodies naming the person: rewritten',
    erase: (tx, p) => scrub(tx, p, 'integration_deliveries', ['payload']),
  },
  contact_profiles: {
    what: "the organisation's billing contacts, where the person is one: rewritten",
    erase: (tx, p) => scrub(tx, p, 'contact_profiles', ['fullName', 'email']),
  },
  api_keys: {
    what: 'who created an API key: rewritten',
    erase: (tx, p) => scrub(tx, p, 'api_keys', ['createdBy']),
  },
  scim_tokens: {
    what: 'who created a provisioning token: rewritten',
    erase: (tx, p) => scrub(tx, p, 'scim_tokens', ['createdBy']),
  },
  webhook_endpoints: {
    what: 'who added a webhook endpoint: rewritten',
    erase: (tx, p) => scrub(tx, p, 'webhook_endpoints', ['createdBy']),
  },
};

/**
 * The users list's search index on SQLite (full-text, contentless: it keeps terms, not text). Triggers on `users`
 * keep it in step with the row, so the tombstone's blank names and reserved address replace the person's terms when
 * the row is rewritten; there is nothing for erasure to do here itself.
 */
const FOLLOWS_USERS: PersonalTable = {
  what: "the users list's search index: follows the users row by trigger, so the tombstone replaces the person",
  erase: () => Promise.resolve(),
};
for (const index of ['users_search', 'users_search_short'])
  for (const part of ['', '_config', '_data', '_docsize', '_idx']) PERSONAL_TABLES[`${index}${part}`] = FOLLOWS_USERS;

/**
 * Tables that keep nothing that identifies a person (or only ids: the tombstone's id stays), each with why. The
 * erasure test requires every table of the schema here or in {@link PERSONAL_TABLES}.
 */
export const NOT_PERSONAL_TABLES: Record<string, string> = {
  users: 'the account row itself becomes the tombstone (AccountLifecycleService.erase)',
  organisations: 'organisations and their settings',
  migrations: 'the schema version',
  typeorm_metadata: "TypeORM's own bookkeeping",
  system_information: 'release and maintenance notices',
  organisation_domains: "an organisation's domains",
  sso_connections: "an organisation's identity providers",
  sso_one_time_values: 'state and nonces of sign-ins under way, minutes long',
  user_groups: "an organisation's groups (the members' links are personal: user_group_members)",
  announcements: 'announcements (their author by id)',
  logo_uploads: 'logo uploads under way',
  stored_files: "organisations' logos",
  log_streams: "an organisation's audit log streams",
  insights_daily: 'counts per organisation and day',
  insights_failures: 'counts per organisation, day and reason',
  search_positions: "the numbers 1 to n the users list's search counts with",
  oidc_signing_keys: "the OpenID provider's signing keys",
  oidc_session_links:
    "which applications a portal session signed in to, by id: kept, so the applications hear that the erased person's sessions ended (back-channel logout)",
};

/**
 * Runs one statement with named parameters (`:id`, `:account` the id as text, `:email`, `:pattern`) through the
 * driver's own escaping.
 */
async function run(tx: EntityManager, sql: string, p: ErasedPerson): Promise<void> {
  const params = {
    id: p.id,
    account: String(p.id),
    email: p.email.toLowerCase(),
    pattern: `%${p.email.toLowerCase()}%`,
  };
  const [query, values] = tx.connection.driver.escapeQueryWithParameters(sql, params, {});
  await tx.query(query, values);
}

/**
 * Rewrites, in batches by id, every row of `table` whose `columns` mention the person's address (or that `related`
 * names by id): each column's text through {@link redact}. Reads by the address's lower-cased form, as the
 * addresses are stored.
 */
async function scrub(
  tx: EntityManager,
  p: ErasedPerson,
  table: string,
  columns: string[],
  related?: string,
  /** A further rewrite of a column's text after {@link redact}, seeing the row's `extra` columns. */
  rewrite?: (row: ObjectLiteral, column: string, text: string) => string,
  extra: string[] = [],
): Promise<void> {
  const mentions = columns.map((c) => `LOWER("${c}") LIKE :pattern`).join(' OR ');
  const where = related ? `(${mentions} OR ${related})` : `(${mentions})`;
  const select = [...columns, ...extra].map((c) => `"${c}"`).join(', ');
  let after = 0;
  for (;;) {
    const [query, values] = tx.connection.driver.escapeQueryWithParameters(
      `SELECT "id", ${select} FROM "${table}" WHERE ${where} AND "id" > :after ORDER BY "id" LIMIT ${SCRUB_BATCH}`,
      { id: p.id, pattern: `%${p.email.toLowerCase()}%`, after },
      {},
    );
    const rows: ObjectLiteral[] = await tx.query(query, values);
    for (const row of rows) {
      const changed: Record<string, string> = {};
      for (const c of columns)
        if (typeof row[c] === 'string') {
          const redacted = redact(row[c] as string, p);
          const text = rewrite ? rewrite(row, c, redacted) : redacted;
          if (text !== row[c]) changed[c] = text;
        }
      if (Object.keys(changed).length > 0)
        await tx.createQueryBuilder().update(table).set(changed).where('id = :rowId', { rowId: row.id }).execute();
    }
    if (rows.length < SCRUB_BATCH) return;
    after = Number(rows[rows.length - 1].id);
  }
}

/**
 * The text with the person's address(es) and names replaced by `Erased user #<id>`: the full name first, then each
 * name as a whole word (so that "Ann" leaves "Annual" alone), case-insensitively.
 */
function redact(text: string, p: ErasedPerson): string {
  const label = erasedUserLabel(p.id);
  const names = [`${p.firstName} ${p.lastName}`, p.firstName, p.lastName]
    .map((n) => n.trim())
    .filter((n) => n.length > 1);
  let out = text;
  for (const address of [p.email, p.directoryUserName])
    if (address) out = out.replace(new RegExp(escapeRegExp(address), 'gi'), label);
  for (const name of names)
    out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(name)}(?![\\p{L}\\p{N}])`, 'giu'), label);
  return out;
}

/** Profile fields whose values, in an audit event's before → after pairs about the person, identify them. */
const IDENTIFYING_FIELDS = [
  'email',
  'firstName',
  'lastName',
  'directoryUserName',
  'externalId',
  'jobTitle',
  'department',
];

/**
 * An audit event's changes about the person with every identifying field's before and after replaced (earlier names
 * and addresses too, which {@link redact} cannot know).
 */
function profileRedacted(changes: string, p: ErasedPerson): string {
  let parsed: Record<string, { from: unknown; to: unknown }>;
  try {
    parsed = JSON.parse(changes) as typeof parsed;
  } catch {
    return changes;
  }
  const label = erasedUserLabel(p.id);
  const blank = (v: unknown) => (v === null || v === '' ? v : label);
  for (const field of IDENTIFYING_FIELDS)
    if (parsed[field]) parsed[field] = { from: blank(parsed[field].from), to: blank(parsed[field].to) };
  return JSON.stringify(parsed);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
