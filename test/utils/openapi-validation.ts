import type { OpenAPIObject } from '@nestjs/swagger';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { NextFunction, Request, Response } from 'express';

type Json = Record<string, unknown>;
interface MediaType {
  schema?: Json;
}
interface DocResponse {
  content?: Record<string, MediaType>;
}
interface Operation {
  operationId?: string;
  responses?: Record<string, DocResponse>;
}

/** What a test's requests answered that the OpenAPI document does not allow: reported by the test that made them. */
const violations: string[] = [];

/** The violations recorded since the last call, emptied (openapi-after-each.ts fails the test with them). */
export function takeViolations(): string[] {
  return violations.splice(0, violations.length);
}

const SUCCESS_HINT =
  "declare the answer on the handler with @Answers(status, 'TypeOfSrcShared') (src/platform/openapi/decorators.ts; the type " +
  'exported from src/shared, then `npm run openapi:schemas`), or @Errors(status) for an error status';

/** A document with its schemas compiled once: every application of one test process answers to the same document. */
interface CompiledDocument {
  paths: Array<{ template: string; pattern: RegExp; item: Record<string, Operation> }>;
  ajv: Ajv;
  compiled: Map<string, ValidateFunction>;
}
const compiledDocuments = new WeakMap<OpenAPIObject, CompiledDocument>();

function compileDocument(document: OpenAPIObject): CompiledDocument {
  let compiled = compiledDocuments.get(document);
  if (compiled) return compiled;
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema(document as unknown as Json, 'openapi.json');
  compiled = {
    ajv,
    compiled: new Map(),
    paths: Object.entries(document.paths).map(([template, item]) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}/?$`, 'i'),
      item: item as Record<string, Operation>,
    })),
  };
  compiledDocuments.set(document, compiled);
  return compiled;
}

/** The schema at `pointer` in the document, compiled on first use. */
function schemaAt(doc: CompiledDocument, pointer: string): ValidateFunction {
  let validate = doc.compiled.get(pointer);
  if (!validate) {
    validate = doc.ajv.compile({ $ref: pointer });
    doc.compiled.set(pointer, validate);
  }
  return validate;
}

/**
 * Checks every answer of one application against its OpenAPI document (docs/api.md): status, content type and,
 * for JSON, the body against the schema. Mounted first, so it sees the answers of every middleware too.
 */
export class ResponseValidator {
  private doc?: CompiledDocument;

  use(document: OpenAPIObject): void {
    this.doc = compileDocument(document);
  }

  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    let body: unknown;
    let captured = false;
    const json = res.json.bind(res);
    res.json = (value: unknown) => {
      if (!captured) {
        captured = true;
        body = value;
      }
      return json(value);
    };
    // A JSON body written as text under its own media type (SCIM's application/scim+json).
    const send = res.send.bind(res);
    res.send = (value?: unknown) => {
      if (!captured && typeof value === 'string' && isJsonType(String(res.getHeader('content-type') ?? ''))) {
        try {
          body = JSON.parse(value);
          captured = true;
        } catch {
          // Not JSON after all: the content type check reports it.
        }
      }
      return send(value);
    };
    const method = req.method.toLowerCase();
    const path = req.originalUrl.split('?')[0];
    res.on('finish', () => {
      const problem = this.check(method, path, res.statusCode, String(res.getHeader('content-type') ?? ''), {
        captured,
        body,
      });
      if (problem) violations.push(problem);
    });
    next();
  };

  private check(
    method: string,
    path: string,
    status: number,
    contentType: string,
    answer: { captured: boolean; body: unknown },
  ): string | undefined {
    if (!this.doc) return undefined;
    // The document itself (SwaggerModule's own routes).
    if (/^\/api\/docs(?:-json|-yaml)?(?:\/|$)/.test(path)) return undefined;
    // The OpenID provider's protocol endpoints: described by its discovery document and the OpenID specifications.
    if (/^\/(?:oidc\/|\.well-known\/openid-configuration$)/.test(path)) return undefined;
    const type = contentType.split(';')[0].trim().toLowerCase();
    const isJson = isJsonType(type);
    // A literal path wins over a template that also matches it (POST /x/accept beside DELETE /x/{id}).
    const candidates = this.doc.paths.filter((p) => p.pattern.test(path));
    const route =
      candidates.find((p) => p.template.toLowerCase() === path.toLowerCase().replace(/\/$/, '')) ??
      candidates.find((p) => p.item[method === 'head' ? 'get' : method]) ??
      candidates[0];
    const shown = `${method.toUpperCase()} ${path} answered ${status}${
      answer.captured ? ` ${JSON.stringify(answer.body)?.slice(0, 300)}` : ''
    }`;
    // Not an API route (the client's pages, socket.io, the metrics excluded from the document), or a path the
    // product does not have: its errors still carry the error body.
    if (!route) {
      if (!isJson || status >= 400) return this.errorBody(shown, status, isJson, answer);
      return `${shown}, but the OpenAPI document has no path for it: ${SUCCESS_HINT}`;
    }
    const op = route.item[method === 'head' ? 'get' : method];
    if (!op) {
      if (status === 405 || (method === 'options' && status === 204))
        return this.errorBody(shown, status, isJson, answer);
      return `${shown}, but the OpenAPI document has no ${method.toUpperCase()} ${route.template}: ${SUCCESS_HINT}`;
    }
    const responses = op.responses ?? {};
    const declared = responses[String(status)] ?? responses.default;
    const where = `${op.operationId ?? route.template}`;
    if (!declared) {
      const has = Object.keys(responses);
      const none = !has.some((s) => /^[23]/.test(s));
      return `${shown}, but the OpenAPI document ${
        none ? `documents no success answer of ${where} yet` : `lists only ${has.join(', ')} for ${where}`
      }: ${SUCCESS_HINT}`;
    }
    if (!declared.content || method === 'head') return undefined;
    const media = Object.keys(declared.content);
    if (!media.includes(type))
      return `${shown} as ${type || 'no content type'}, but ${where} documents ${media.join(', ')} for ${status}`;
    // A file download (a JSON document streamed as an attachment) is documented as binary: not checked as a body.
    const file = (declared.content[type]?.schema as { format?: string } | undefined)?.format === 'binary';
    if (!isJson || file) return undefined;
    if (!answer.captured) return `${shown} with a JSON body that was not written with res.json (cannot be checked)`;
    const pointer = `openapi.json#/paths/${escape(route.template)}/${method}/responses/${status in responses ? status : 'default'}/content/${escape(type)}/schema`;
    const validate = schemaAt(this.doc, pointer);
    if (validate(answer.body)) return undefined;
    return `${shown}, which does not match ${where}'s ${status} schema: ${this.doc.ajv.errorsText(validate.errors, {
      separator: '; ',
    })}`;
  }

  /** Answers outside the operations (unknown paths, 405) still carry the error body. */
  private errorBody(shown: string, status: number, isJson: boolean, answer: { captured: boolean; body: unknown }) {
    if (!this.doc || status < 400 || !isJson || !answer.captured) return undefined;
    const validate = schemaAt(this.doc, 'openapi.json#/components/schemas/ErrorBody');
    return validate(answer.body) ? undefined : `${shown}, which is not the error body`;
  }
}

/** application/json, and the JSON media types of a standard (application/scim+json, application/problem+json). */
const isJsonType = (contentType: string) =>
  /^application\/(?:[\w.-]+\+)?json$/.test(contentType.split(';')[0].trim().toLowerCase());

const escape = (segment: string) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));
