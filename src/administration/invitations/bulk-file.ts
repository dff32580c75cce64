import { parseCsv } from '../../platform/web/csv';
import {
  INVITATION_LIMITS as L,
  INVITATION_MESSAGES as M,
  parseInvitationRole,
} from '../../shared/administration/invitations';
import { PRIVILEGED_ROLES } from '../../shared/roles';

/** One data row of a bulk file: `row` counts from 1 below the header; `role` as resolved, null when unknown. */
export interface BulkRow {
  row: number;
  /** The address cell as written (trimmed). */
  email: string;
  role: ReturnType<typeof parseInvitationRole>;
}

/**
 * A bulk invitation file read once, where the body is read (BulkBodyMiddleware): its rows with their roles resolved,
 * or why it cannot be used. The step-up decision and the invitations are both made from these rows, so a role cell
 * is read one way only, however it is quoted.
 */
export class BulkFile {
  private constructor(
    readonly rows: readonly BulkRow[],
    /** Why the file cannot be used (400), or null. */
    readonly problem: string | null,
  ) {}

  static read(text: string): BulkFile {
    const rows = parseCsv(text, L.BULK_MAX_ROWS + 1);
    if (rows === null) return new BulkFile([], M.BULK_TOO_MANY);
    const header = rows.shift()?.map((h) => h.trim().toLowerCase());
    if (!header || header[0] !== 'email' || header[1] !== 'role') return new BulkFile([], M.BULK_HEADER);
    if (rows.length === 0) return new BulkFile([], M.BULK_EMPTY);
    return new BulkFile(
      rows.map((cells, index) => ({
        row: index + 1,
        email: (cells[0] ?? '').trim(),
        role: parseInvitationRole(cells[1] ?? ''),
      })),
      null,
    );
  }

  /** Whether a row grants Site Admin or Administrator: the call is then sensitive (docs/product-rules.md §7). */
  get grantsPrivilegedRole(): boolean {
    return this.rows.some((r) => r.role !== null && (r.role.admin || PRIVILEGED_ROLES.includes(r.role.roleId)));
  }
}
