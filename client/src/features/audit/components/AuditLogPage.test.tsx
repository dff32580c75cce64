import { describe, expect, it } from 'vitest';
import { auditApi, auditSearch } from '../api/audit-api';
import { EMPTY_AUDIT_FILTER, toAuditQuery } from './AuditLogPage';

describe('audit log filters', () => {
  it('sends only the filters that are set', () => {
    expect(toAuditQuery(EMPTY_AUDIT_FILTER, '')).toEqual({});
    const q = toAuditQuery({ ...EMPTY_AUDIT_FILTER, type: 'ROLE_CHANGED', actorId: '7' }, 'x@y');
    expect(auditSearch({ ...q, page: 2, pageSize: 25 })).toBe(
      '?type=ROLE_CHANGED&actorId=7&searchText=x%40y&page=2&pageSize=25',
    );
  });

  it("sends picked days as the instants of the user's local day", () => {
    const q = toAuditQuery({ ...EMPTY_AUDIT_FILTER, from: '2026-01-01', to: '2026-01-01' }, '');
    expect(new Date(q.from!).getTime()).toBe(new Date(2026, 0, 1).getTime());
    expect(new Date(q.to!).getTime()).toBe(new Date(2026, 0, 2).getTime() - 1);
  });

  it('exports with the same filters, without paging', () => {
    expect(auditApi.exportPath({ type: 'LOGOUT', page: 3, pageSize: 100 })).toBe('api/audit-events/export?type=LOGOUT');
  });
});
