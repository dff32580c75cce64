import { INestApplication, ParseIntPipe } from '@nestjs/common';
import { METHOD_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer, Reflector } from '@nestjs/core';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { REFRESH_COOKIE } from '../web/http/refresh-cookie';
import { ACCESS_KEY, ACCESS_REFUSALS, AccessRule, Credential } from '../web/decorators/access.decorators';
import { ParseIdPipe } from '../web/pipes/parse-id.pipe';
import { LIMITS } from '../../shared/limits';
import { version } from '../config/version';
import { ERRORS_KEY } from './decorators';
import sharedSchemas from './shared-schemas.json';

// class-transformer keeps the storage of @Type() metadata (nested DTOs) out of its typed entry point.
const { defaultMetadataStorage } =
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');

type Json = Record<string, unknown>;
interface Operation extends Json {
  operationId?: string;
  summary?: string;
  parameters?: Array<Json & { name: string; in: string }>;
  requestBody?: { content?: Record<string, { schema?: Json }>; required?: boolean };
  responses: Record<string, Json & { content?: Record<string, { schema?: Json }> }>;
  security?: Array<Record<string, string[]>>;
}

const ERROR_TEXTS: Record<number, string> = {
  400: 'The input is not valid (the message names the field and the reason); nothing changed',
  401: ACCESS_REFUSALS[401],
  403: ACCESS_REFUSALS[403],
  404: 'Nothing of this id the caller may see',
  409: 'The change conflicts with the stored state',
  413: 'The request body is too large',
  415: 'The request body has an unsupported character set or encoding',
  429: 'Too many requests: wait the Retry-After seconds',
  431: 'The request line and headers are too large (a long query string): refused before the route',
  500: 'A fault of the server; logged with the request id',
  502: 'An identity provider does not answer',
  503: 'The database or a dependency is busy or down: retry after Retry-After',
};

const SECURITY_SCHEMES: Record<Credential, Json> = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'The access token of a session: a JWT signed HS256, 15 minutes, checked as RFC8725 advises. An organisation ' +
      'API key (tpk_…, the apiKey scheme) goes in the same header; the prefix tells it from a token',
  },
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      "An organisation API key (tpk_…, docs/api-keys.md) as `Authorization: Bearer`: acts as an Administrator of its organisation within its scopes (users:read, users:write, audit:read); the operation's description names the scope it needs. Outside them, and on every sensitive call, 403 INSUFFICIENT_SCOPE; unknown, revoked or expired, 401",
  },
  challenge: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'The challenge token of a sign-in step (TOTP, forced password change), from the 401 of /auth/login: a JWT ' +
      'of minutes, for that step only, checked as RFC8725 advises',
  },
  service: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Key',
    description: 'SERVICE_API_KEY, for back-end systems',
  },
  provisioning: { type: 'http', scheme: 'bearer', description: "An organisation's SCIM provisioning token" },
  refreshCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: REFRESH_COOKIE,
    description: 'The HttpOnly refresh token cookie, scoped to /refresh',
  },
};

/** The API's OpenAPI document, built from the controllers', DTOs' and src/shared's code: served at /api/docs-json. */
export function openApiDocument(app: INestApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setOpenAPIVersion('3.1.0')
      .setTitle('Tax Portal API')
      .setDescription(
        'Sign-in, user administration and the application shell. Every error answers the error body ' +
          '`{success: false, statusCode, code, message}` (ErrorBody).',
      )
      .setVersion(version)
      .build(),
  );
  // One server: the deployment the document was read from (its PUBLIC_URL), production or a local environment.
  document.servers = [
    { url: '/', description: 'This deployment: production, or a local environment', 'x-internal': false } as never,
  ];
  completeDocument(document, app);
  return document;
}

/** Route metadata the Swagger explorer does not turn into the document: see docs/api.md. */
function completeDocument(document: OpenAPIObject, app: INestApplication): void {
  const reflector = new Reflector();
  const dtoSchemas = validationMetadatasToSchemas({
    refPointerPrefix: '#/components/schemas/',
    classTransformerMetadataStorage: defaultMetadataStorage,
  }) as Record<string, Json>;
  const components = (document.components ??= {});
  const schemas = (components.schemas ??= {}) as Record<string, Json>;
  // Request DTOs: the rules class-validator enforces (lengths, patterns, enums, bounds), with the texts of @ApiProperty.
  for (const [name, schema] of Object.entries(dtoSchemas)) schemas[name] = withDescriptions(schema, schemas[name]);
  Object.assign(schemas, sharedSchemas);
  components.securitySchemes = SECURITY_SCHEMES as never;

  const operations = new Map<string, { path: string; op: Operation; method: string }>();
  for (const [path, item] of Object.entries(document.paths))
    for (const [method, op] of Object.entries(item as Record<string, Operation>))
      if (op?.operationId) operations.set(op.operationId, { path, op, method });

  for (const module of app.get(ModulesContainer).values())
    for (const wrapper of module.controllers.values()) {
      const ctrl = wrapper.metatype as (new (...a: unknown[]) => object) | undefined;
      if (!ctrl?.prototype) continue;
      for (const name of Object.getOwnPropertyNames(ctrl.prototype)) {
        const handler = Object.getOwnPropertyDescriptor(ctrl.prototype, name)?.value as object | undefined;
        if (name === 'constructor' || typeof handler !== 'function') continue;
        if (Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        const found = operations.get(`${ctrl.name}_${name}`);
        if (!found) continue;
        const { path, op, method } = found;
        const targets = [handler, ctrl];
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, ctrl, name) ?? {}) as Record<
          string,
          { index: number; data?: unknown; pipes?: unknown[] }
        >;
        const types = (Reflect.getMetadata('design:paramtypes', ctrl.prototype, name) ?? []) as Array<{
          name?: string;
        }>;
        const argsOf = (kind: RouteParamtypes) =>
          Object.entries(args)
            .filter(([key]) => Number(key.split(':')[0]) === kind)
            .map(([, arg]) => ({ ...arg, type: types[arg.index] }));
        for (const { index } of Object.values(args)) inheritRules(types[index], dtoSchemas, schemas);

        op.summary ??= humanise(name);
        describePathParameters(op, path, argsOf(RouteParamtypes.PARAM), dtoSchemas);
        describeQuery(op, argsOf(RouteParamtypes.QUERY), dtoSchemas);
        const body = argsOf(RouteParamtypes.BODY).find((a) => a.data === undefined);
        if (body?.type?.name && dtoSchemas[body.type.name] && op.requestBody?.content) {
          for (const [type, media] of Object.entries(op.requestBody.content))
            media.schema =
              type === 'multipart/form-data'
                ? withFile(dtoSchemas[body.type.name])
                : { $ref: `#/components/schemas/${body.type.name}` };
          op.requestBody.required = true;
        }

        // The route's @Access names its credentials (op.security, `{}` first when it also answers without any) and
        // the 401 and 403 they may bring.
        op.security ??= [];
        const credentials = op.security.flatMap((requirement) => Object.keys(requirement));
        // SCIM 2.0 (RFC 7644): a directory's provisioning token; answers and refusals in application/scim+json.
        const rule = reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_KEY, targets);
        const isScim = rule?.kind === 'scim';
        // An organisation API key's scope for the route (docs/api-keys.md), as an extension and in words.
        if (rule?.kind === 'roles' && rule.apiKey) {
          (op as Json)['x-api-key-scope'] = rule.apiKey;
          op.description = `${op.description ? `${op.description}\n\n` : ''}Organisation API keys: scope \`${rule.apiKey}\`.`;
        }

        // Nest's placeholder for a route without a declared answer ({200: {description: ''}}) says nothing.
        for (const [status, response] of Object.entries(op.responses))
          if (!response.content && !response.headers && response.description === '') delete op.responses[status];
        // 431: the HTTP server refuses a request line and headers over its limit before any route (client-error.ts).
        const errors = new Set<number>([429, 431, 500, 503]);
        const readsInput = [RouteParamtypes.BODY, RouteParamtypes.QUERY, RouteParamtypes.PARAM].some(
          (kind) => argsOf(kind).length > 0,
        );
        // The body parsers run before any route on every write: malformed, too deep, too large, a foreign charset.
        const writes = method !== 'get';
        if (readsInput || op.requestBody || writes) errors.add(400);
        if (op.requestBody || writes) errors.add(413);
        if (writes) errors.add(415);
        // Ids in the path, the body or the query: another organisation's row is a 404, as a missing one.
        if (path.includes('{') || (readsInput && credentials.length > 0)) errors.add(404);
        for (const status of reflector.get<number[] | undefined>(ERRORS_KEY, handler) ?? []) errors.add(status);
        const errorContent: Record<string, { schema?: Json }> = isScim
          ? { 'application/scim+json': { schema: { $ref: '#/components/schemas/ScimErrorDto' } } }
          : { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } };
        // A refusal is always the error body (SCIM's error on /scim), whichever class or content type (a CSV
        // export's) the route's own response decorators named.
        for (const [status, response] of Object.entries(op.responses))
          if (Number(status) >= 400 && response.content) response.content = errorContent;
        for (const status of [...errors].sort())
          op.responses[String(status)] ??= {
            description: ERROR_TEXTS[status] ?? `Error ${status}`,
            content: errorContent,
          };
        for (const [status, response] of Object.entries(op.responses))
          response.headers = { ...(response.headers as Json), ...rateLimitHeaders(Number(status)) };
      }
    }
  pruneUnusedSchemas(document);
  boundIntegers(document);
  const tags = new Set<string>();
  for (const item of Object.values(document.paths))
    for (const op of Object.values(item as Record<string, Operation>))
      for (const tag of (op.tags as string[]) ?? []) tags.add(tag);
  document.tags = [...tags].sort().map((name) => ({ name, description: `The ${name} routes` }));
}

const header = (description: string) => ({
  description,
  schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 2_147_483_647 },
});

/** The throttler's headers on every answer it counted, and Retry-After where one may be refused for a while. */
function rateLimitHeaders(status: number): Json {
  return {
    'X-RateLimit-Limit': header('Requests allowed in the window'),
    'X-RateLimit-Remaining': header('Requests left in the window'),
    'X-RateLimit-Reset': header('Seconds until the window starts again'),
    ...(status === 429 || status === 503 ? { 'Retry-After': header('Seconds to wait before trying again') } : {}),
  };
}

/**
 * Integers of requests are stored in 32-bit columns: a larger one names nothing and is refused (PostgreSQL's range
 * error is a 400), so the document states the int32 range where a DTO sets no narrower one.
 */
function boundIntegers(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(boundIntegers);
  if (typeof node !== 'object' || node === null) return;
  const n = node as Json;
  if (n.type === 'integer') {
    n.format ??= 'int32';
    n.minimum ??= -2_147_483_648;
    n.maximum ??= LIMITS.ID_MAX;
  }
  for (const value of Object.values(n)) boundIntegers(value);
}

/**
 * A DTO that only extends another (`class UpdateXDto extends XFields {}`) has no rules of its own, and
 * class-validator-jsonschema emits no schema for it: it takes its nearest ancestor's, under its own name.
 */
function inheritRules(
  type: { name?: string } | undefined,
  dtoSchemas: Record<string, Json>,
  schemas: Record<string, Json>,
): void {
  if (typeof type !== 'function' || !type.name || dtoSchemas[type.name]) return;
  for (let parent = Object.getPrototypeOf(type) as { name?: string } | null; parent?.name;) {
    const inherited = dtoSchemas[parent.name];
    if (inherited) {
      dtoSchemas[type.name] = inherited;
      schemas[type.name] = withDescriptions(inherited, schemas[type.name]);
      return;
    }
    parent = Object.getPrototypeOf(parent) as { name?: string } | null;
  }
}

/** `updateRole` → "Update role". */
function humanise(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** class-validator's schema of a DTO, with the descriptions and examples its @ApiProperty gives. */
function withDescriptions(schema: Json, explorer: Json | undefined): Json {
  const texts = (explorer?.properties ?? {}) as Record<string, Json>;
  const properties = Object.fromEntries(
    Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([key, prop]) => {
      const { description, example } = texts[key] ?? {};
      return [key, { ...prop, ...(description ? { description } : {}), ...(example ? { example } : {}) }];
    }),
  );
  // Unknown fields are refused (whitelist, forbidNonWhitelisted).
  return { ...schema, properties, additionalProperties: false };
}

function withFile(schema: Json): Json {
  return {
    ...schema,
    properties: { ...(schema.properties as Json), file: { type: 'string', format: 'binary' } },
    required: [...((schema.required as string[] | undefined) ?? []), 'file'],
  };
}

function describePathParameters(
  op: Operation,
  path: string,
  params: Array<{ data?: unknown; pipes?: unknown[]; type?: { name?: string } }>,
  dtoSchemas: Record<string, Json>,
): void {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const whole = params.find((p) => p.data === undefined && p.type?.name && dtoSchemas[p.type.name]);
  const fromDto = (whole ? dtoSchemas[whole.type!.name!].properties : {}) as Record<string, Json>;
  const others = (op.parameters ?? []).filter((p) => p.in !== 'path');
  op.parameters = [
    ...names.map((name) => {
      const own = params.find((p) => p.data === name);
      const isId = own?.pipes?.some((pipe) => pipe === ParseIdPipe || pipe === ParseIntPipe);
      const schema = isId
        ? { type: 'integer', minimum: 1, maximum: LIMITS.ID_MAX }
        : (fromDto[name] ?? { type: 'string', minLength: 1, maxLength: 255 });
      return { name, in: 'path', required: true, schema };
    }),
    ...others,
  ];
}

function describeQuery(
  op: Operation,
  queries: Array<{ data?: unknown; type?: { name?: string } }>,
  dtoSchemas: Record<string, Json>,
): void {
  const dto = queries.find((q) => q.data === undefined && q.type?.name && dtoSchemas[q.type.name]);
  if (!dto) return;
  const schema = dtoSchemas[dto.type!.name!];
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const described = new Map((op.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p]));
  op.parameters = [
    ...(op.parameters ?? []).filter((p) => p.in !== 'query'),
    ...Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([name, prop]) => ({
      name,
      in: 'query',
      required: required.has(name),
      ...(described.get(name)?.description ? { description: described.get(name)!.description } : {}),
      schema: prop,
    })),
  ];
}

/** Keeps only the schemas the paths reach: src/shared also exports types no answer uses. */
function pruneUnusedSchemas(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, unknown>;
  const reached = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const name = value.replace('#/components/schemas/', '');
        if (!reached.has(name)) {
          reached.add(name);
          walk(schemas[name]);
        }
      } else walk(value);
    }
  };
  walk(document.paths);
  for (const name of Object.keys(schemas)) if (!reached.has(name)) delete schemas[name];
}
