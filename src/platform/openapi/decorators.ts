import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiProduces, ApiResponse } from '@nestjs/swagger';
import sharedSchemas from './shared-schemas.json';

/** A type exported by src/shared: the schemas of the document's answers are generated from them. */
export type SharedType = keyof typeof sharedSchemas;

const ref = (name: SharedType) => ({ $ref: `#/components/schemas/${name}` });

/**
 * The success answer of a route: a type of src/shared, a list of one (`[Type]`), or a file's content types.
 * `@Answers(200, 'UserListPage')`, `@Answers(200, ['PasskeyItem'])`, `@Answers(200, { files: ['text/csv'] })`.
 */
export function Answers(
  status: number,
  shape: SharedType | [SharedType] | { files: readonly string[] },
  description = 'Success',
): MethodDecorator {
  if (typeof shape === 'object' && !Array.isArray(shape)) {
    const content = Object.fromEntries(
      shape.files.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
    );
    return applyDecorators(ApiProduces(...shape.files), ApiResponse({ status, description, content }));
  }
  const schema = Array.isArray(shape) ? { type: 'array', items: ref(shape[0]) } : ref(shape);
  return ApiResponse({ status, description, content: { 'application/json': { schema } } });
}

/** A redirect answer (302 with Location). */
export function Redirects(description: string): MethodDecorator {
  return ApiResponse({
    status: 302,
    description,
    headers: { Location: { description: 'Where the browser goes next', schema: { type: 'string', maxLength: 4096 } } },
  });
}

export const ERRORS_KEY = 'openapi:errors';
/** Error statuses a route answers beyond those its access, input and path imply (see document.ts). */
export const Errors = (...statuses: number[]) => SetMetadata(ERRORS_KEY, statuses);
