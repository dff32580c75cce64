import { describe, expect, it } from 'vitest';
import type { UserSessionRow } from '@shared/api-types';
import { concurrencyBanner, severity } from './sessions-view';

const row = (status: 'online' | 'offline'): UserSessionRow => ({
  id: 1,
  email: 'a@x.test',
  roles: [],
  status,
  onlineSessions: status === 'online' ? 1 : 0,
  lastLoginTime: null,
  lastRefreshTime: null,
  canForceLogoff: true,
});

describe('sessions view rules (spec 001 §4, §8, §9)', () => {
  it('severity: success for online, warning for offline', () => {
    expect(severity('online')).toBe('success');
    expect(severity('offline')).toBe('warning');
  });

  it('banner: error above the maximum, warning at it, none below', () => {
    expect(concurrencyBanner([row('online'), row('online'), row('offline')], 1)).toEqual({
      status: 'error',
      text: 'Your organisation has exceeded the maximum allowed concurrent users. Please disable or force logoff one or more users.',
    });
    expect(concurrencyBanner([row('online'), row('online'), row('offline')], 2)).toEqual({
      status: 'warning',
      text: 'Your organisation has reached the max allowed concurrent users. Further user logins will not be allowed.',
    });
    expect(concurrencyBanner([row('online'), row('offline')], 2)).toBeNull();
  });
});
