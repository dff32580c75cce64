import { errorResponse, isScimPath } from './error-response';

const body = { success: false, statusCode: 405, code: 'METHOD_NOT_ALLOWED', message: 'PUT is not allowed here.' };

describe('errorResponse: the one shape of every error', () => {
  it('is the error body (docs/product-rules.md §3) as JSON outside the SCIM service', () => {
    const { contentType, text } = errorResponse('/api/users?x=1', 405, body);
    expect(contentType).toBe('application/json; charset=utf-8');
    expect(JSON.parse(text)).toEqual(body);
  });

  it('adds the SCIM error schema’s fields under /scim, in any case, as application/scim+json', () => {
    for (const target of ['/scim', '/scim/v2/Users', '/SCIM/V2/USERS?filter=x', '/scim/anything'])
      expect({ target, ...errorResponse(target, 405, body) }).toEqual({
        target,
        contentType: 'application/scim+json; charset=utf-8',
        text: JSON.stringify({
          ...body,
          schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
          status: '405',
          detail: body.message,
        }),
      });
  });

  it('gives a SCIM 400 without its own scimType invalidSyntax, and keeps one it has', () => {
    const bad = { ...body, statusCode: 400, code: 'VALIDATION_FAILED' };
    expect(JSON.parse(errorResponse('/scim/v2/Users', 400, bad).text).scimType).toBe('invalidSyntax');
    expect(JSON.parse(errorResponse('/scim/v2/Users', 400, { ...bad, scimType: 'invalidPath' }).text).scimType).toBe(
      'invalidPath',
    );
  });

  it('does not take paths that only begin like the SCIM mount for it', () => {
    expect(['/scimitar', '/api/scim-tokens', '/files/scim', ''].map(isScimPath)).toEqual([false, false, false, false]);
  });
});
