import { isLoopback } from './metrics-access.guard';

describe('isLoopback (who may read /api/metrics without METRICS_TOKEN)', () => {
  it.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])('%s is this machine', (a) =>
    expect(isLoopback(a)).toBe(true),
  );
  it.each(['10.0.0.1', '203.0.113.9', '::ffff:10.0.0.1', 'fe80::1', '1270.0.0.1', '', undefined])('%s is not', (a) =>
    expect(isLoopback(a)).toBe(false),
  );
});
