import { allowedMethods, methodTable } from './method-table';

const routes = [
  { path: '/api/users', method: 'GET' },
  { path: '/api/users', method: 'POST' },
  { path: '/api/users/:id', method: 'GET' },
  { path: '/api/users/:id', method: 'DELETE' },
  { path: '/api/users/:id/erase', method: 'POST' },
  { path: '/auth/login', method: 'POST' },
  { path: '/refresh', method: 'POST' },
  { path: '/scim/:version/Users', method: 'GET' },
  { path: '/:tenant/export', method: 'GET' },
  { path: '/everything', method: 'ALL' },
];

/** The same routes without the filing: a path matched against every one of them, as the table must answer. */
function everyRoute(path: string): string[] | undefined {
  const filed = methodTable(routes);
  return allowedMethods(
    { byPrefix: new Map(), others: [...filed.others, ...[...filed.byPrefix.values()].flat()] },
    path,
  );
}

describe('the method table', () => {
  const table = methodTable(routes);

  it.each([
    ['/api/users', ['GET', 'HEAD', 'OPTIONS', 'POST']],
    ['/api/users/', ['GET', 'HEAD', 'OPTIONS', 'POST']],
    ['/API/Users/7', ['DELETE', 'GET', 'HEAD', 'OPTIONS']],
    ['/api/users/7/erase', ['OPTIONS', 'POST']],
    ['/auth/login', ['OPTIONS', 'POST']],
    ['/refresh', ['OPTIONS', 'POST']],
    ['/scim/v2/Users', ['GET', 'HEAD', 'OPTIONS']],
    ['/acme/export', ['GET', 'HEAD', 'OPTIONS']],
    ['/everything', ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']],
  ])('%s takes %j, as matching it against every route answers', (path, methods) => {
    expect(allowedMethods(table, path)).toEqual(methods);
    expect(everyRoute(path)).toEqual(methods);
  });

  it.each(['/api/nothing', '/api/users/7/unknown', '/', '/auth', '/api/us%65rs'])('%s is no route', (path) => {
    expect(allowedMethods(table, path)).toBeUndefined();
    expect(everyRoute(path)).toBeUndefined();
  });

  it('files routes under their first two fixed segments, the others apart', () => {
    expect([...table.byPrefix.keys()].sort()).toEqual(['api/users', 'auth/login']);
    expect(table.others).toHaveLength(4);
  });
});
