/** The SCIM service's mount point (RFC 7644): its errors carry the SCIM error schema's fields too. */
const SCIM_MOUNT = '/scim';
const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
const SCIM_MEDIA_TYPE = 'application/scim+json';
/** scimType for a 400 that names none: a body that is no JSON, or of the wrong shape. */
const SCIM_INVALID_SYNTAX = 'invalidSyntax';

/** Whether a request target (path, with or without its query) is the SCIM service's; Express routes it in any case. */
export function isScimPath(target: string): boolean {
  const path = target.split('?')[0].toLowerCase();
  return path === SCIM_MOUNT || path.startsWith(`${SCIM_MOUNT}/`);
}

/** An error answer as written on the wire: its media type and its JSON text. */
export interface ErrorResponse {
  contentType: string;
  text: string;
}

/**
 * The one shape of every error the server writes, whoever writes it (the exception filter, the 405 middleware, the
 * HTTP server's clientError handler): the error body (docs/product-rules.md §3) `{success: false, statusCode, code, message}` as JSON; on
 * the SCIM service's paths the same body also carries RFC 7644 §3.12's fields (schemas, status as text, scimType,
 * detail), as application/scim+json, which a directory reads.
 */
export function errorResponse(target: string, status: number, body: Record<string, unknown>): ErrorResponse {
  if (!isScimPath(target)) return { contentType: 'application/json; charset=utf-8', text: JSON.stringify(body) };
  const scimType = typeof body.scimType === 'string' ? body.scimType : status === 400 ? SCIM_INVALID_SYNTAX : undefined;
  return {
    contentType: `${SCIM_MEDIA_TYPE}; charset=utf-8`,
    text: JSON.stringify({
      ...body,
      schemas: [SCIM_ERROR_SCHEMA],
      status: String(status),
      ...(scimType ? { scimType } : {}),
      detail: body.message,
    }),
  };
}
