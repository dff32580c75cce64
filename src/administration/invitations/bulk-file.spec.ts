import { INVITATION_MESSAGES as M } from '../../shared/administration/invitations';
import { Role } from '../../shared/roles';
import { BulkFile } from './bulk-file';

describe('BulkFile', () => {
  it('resolves each row’s role from the cell as the CSV reads it, quoted in pieces or not', () => {
    const file = BulkFile.read('email,role\na@b.test,"Admin"istrator\nc@b.test,"SITE_"ADMIN\r\nd@b.test,Viewer\n');
    expect(file.problem).toBeNull();
    expect(file.rows).toEqual([
      { row: 1, email: 'a@b.test', role: { roleId: Role.STANDARD_ADMIN, admin: true } },
      { row: 2, email: 'c@b.test', role: { roleId: Role.SITE_ADMIN, admin: false } },
      { row: 3, email: 'd@b.test', role: { roleId: Role.VIEWER, admin: false } },
    ]);
    expect(file.grantsPrivilegedRole).toBe(true);
  });

  it('grants nothing privileged when no resolved role is: an address or an unknown role naming one does not count', () => {
    expect(BulkFile.read('email,role\nadministrator@b.test,Analyst').grantsPrivilegedRole).toBe(false);
    expect(BulkFile.read('email,role\na@b.test,Site Administrator').grantsPrivilegedRole).toBe(false);
    expect(BulkFile.read('email,role\na@b.test,Viewer').grantsPrivilegedRole).toBe(false);
  });

  it('tells why a file cannot be used', () => {
    expect(BulkFile.read('mail,role\na@b.test,Viewer').problem).toBe(M.BULK_HEADER);
    expect(BulkFile.read('email,role\n').problem).toBe(M.BULK_EMPTY);
    expect(BulkFile.read(`email,role\n${'a@b.test,Viewer\n'.repeat(1001)}`).problem).toBe(M.BULK_TOO_MANY);
  });
});
