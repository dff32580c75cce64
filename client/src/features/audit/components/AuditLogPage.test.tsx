import { describe, expect, it } from 'vitest';
import { auditApi, auditSearch } from '../api/audit-api';
import { EMPTY_AUDIT_FILTER, toAuditQuery } from './AuditLogPage';

describe('audit log filters (issue 13)', () => {
  it('sends only the filters that are set', () => {
    expect(toAuditQuery(EMPTY_AUDIT_FILTER, '')).toEqual({});
    const q = toAuditQuery({ ...EMPTY_AUDIT_FILTER, from: '2026-01-01', type: 'ROLE_CHANGED', actorId: '7' }, 'x@y');
    expect(auditSearch({ ...q, page: 2, pageSize: 25 })).toBe('?from=2026-01-01&type=ROLE_CHANGED&actorId=7&searchText=x%40y&page=2&pageSize=25');
  });

  it('exports with the same filters, without paging', () => {
    expect(auditApi.exportPath({ type: 'LOGOUT', page: 3, pageSize: 100 })).toBe('api/audit-events/export?type=LOGOUT');
  });
});
