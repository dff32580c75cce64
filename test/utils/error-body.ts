import type { Response } from 'supertest';

/** True when a body has the error shape of docs/product-rules.md §3 for `status`: {success: false, statusCode, code, message}. */
export function isErrorBody(body: unknown, status: number): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return (
    b.success === false &&
    b.statusCode === status &&
    typeof b.code === 'string' &&
    b.code.length > 0 &&
    typeof b.message === 'string'
  );
}

/** Asserts the status and the error body (docs/product-rules.md §3), showing the body when it is not. */
export function expectErrorBody(res: Response, status: number): void {
  expect({ status: res.status, body: res.body }).toEqual({
    status,
    body: expect.objectContaining({ success: false, statusCode: status }),
  });
  if (!isErrorBody(res.body, status)) throw new Error(`not the error body: ${JSON.stringify(res.body)}`);
}
