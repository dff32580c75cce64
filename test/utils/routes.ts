import { INestApplication, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer, Reflector } from '@nestjs/core';
import { getMetadataStorage } from 'class-validator';
import { ACCESS_KEY, AccessRule, ChallengeStep } from '../../src/platform/web/decorators/access.decorators';
import { ApiKeyScope } from '../../src/shared/administration/api-keys';
import { Role } from '../../src/shared/roles';

// class-transformer keeps the storage of @Type() metadata out of its typed entry point.
const { defaultMetadataStorage } =
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');

/** A property of a DTO and the class-validator rules on it (e.g. isInt, isIn with its values, matches). */
export interface FieldInfo {
  name: string;
  rules: Array<{ name: string; constraints: unknown[]; each: boolean }>;
  /** The field may be left out (@IsOptional, @OmitOrValid; not a @ValidateIf that still applies to an empty body). */
  optional: boolean;
  /** The fields of a nested DTO (@ValidateNested with @Type). */
  nested: FieldInfo[];
}

/** One HTTP route of the running application, as its controller declares it. */
export interface RouteInfo {
  method: string;
  /** e.g. /api/users/byId/:id */
  path: string;
  /** Names of the path parameters, in order. */
  params: string[];
  /**
   * Who may call it (its @Access): anyone, the service key, an organisation's provisioning token (SCIM), the holder
   * of a sign-in step's challenge token, or these roles; roles [] when the route states none.
   */
  access:
    | { kind: 'public' }
    | { kind: 'service' }
    | { kind: 'scim' }
    | { kind: 'challenge'; step: ChallengeStep; optional: boolean }
    | { kind: 'roles'; roles: readonly Role[]; apiKey?: ApiKeyScope };
  /** How many @Access the route carries, on its handler and on its controller together (one, always). */
  accessDeclarations: number;
  /** @Access({ stepUp }): 'always', 'conditional' (its `when` decides per request), or absent. */
  stepUp?: 'always' | 'conditional';
  /** Property names the @Body() DTO validates (empty when the body is not a DTO). */
  bodyKeys: string[];
  bodyFields: FieldInfo[];
  /** Property names the @Query() DTO validates. */
  queryKeys: string[];
  /** The handler takes a body, a query, a path parameter or the whole request. */
  readsInput: boolean;
}

/** The fields a class-validator DTO declares, with their rules, or [] for anything else (a primitive, Object, none). */
function dtoFields(type: unknown, seen = new Set<unknown>()): FieldInfo[] {
  if (typeof type !== 'function' || [Object, String, Number, Boolean, Array].includes(type as never) || seen.has(type))
    return [];
  seen.add(type);
  const byName = new Map<string, FieldInfo>();
  for (const m of getMetadataStorage().getTargetValidationMetadatas(type as new () => object, '', true, false)) {
    const field = byName.get(m.propertyName) ?? { name: m.propertyName, rules: [], optional: false, nested: [] };
    byName.set(m.propertyName, field);
    if (m.type === 'nestedValidation') {
      const nested = defaultMetadataStorage.findTypeMetadata(type as never, m.propertyName)?.typeFunction();
      field.nested = dtoFields(nested, seen);
    } else if (m.type === 'conditionalValidation') {
      // @IsOptional and the like skip an absent field; a @ValidateIf that still applies to {} does not.
      const applies = m.constraints?.[0] as ((object: object, value: unknown) => boolean) | undefined;
      if (typeof applies === 'function' && !applies({}, undefined)) field.optional = true;
    } else if (m.name) {
      field.rules.push({ name: m.name, constraints: m.constraints ?? [], each: !!m.each });
    }
  }
  return [...byName.values()];
}

/** Every route of every controller of `app`: new routes are found without a list to keep up. */
export function listRoutes(app: INestApplication): RouteInfo[] {
  const reflector = new Reflector();
  const out: RouteInfo[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const ctrl = wrapper.metatype as (new (...a: unknown[]) => object) | undefined;
      if (!ctrl?.prototype) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, ctrl) ?? '');
      for (const name of Object.getOwnPropertyNames(ctrl.prototype)) {
        const handler = Object.getOwnPropertyDescriptor(ctrl.prototype, name)?.value;
        if (
          name === 'constructor' ||
          typeof handler !== 'function' ||
          Reflect.getMetadata(PATH_METADATA, handler) === undefined
        )
          continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
        const path = `/${base}/${Reflect.getMetadata(PATH_METADATA, handler)}`
          .replace(/\/+/g, '/')
          .replace(/(.)\/$/, '$1');
        const targets = [handler, ctrl];
        const rule = reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_KEY, targets);
        const access: RouteInfo['access'] =
          rule === undefined
            ? { kind: 'roles', roles: [] }
            : rule.kind === 'roles'
              ? { kind: 'roles', roles: rule.roles, ...(rule.apiKey ? { apiKey: rule.apiKey } : {}) }
              : rule.kind === 'challenge'
                ? { kind: 'challenge', step: rule.step, optional: rule.optional }
                : { kind: rule.kind };
        const sensitive = rule?.kind === 'roles' ? rule.stepUp : undefined;
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, ctrl, name) ?? {}) as Record<
          string,
          { index: number; data?: unknown }
        >;
        const types = (Reflect.getMetadata('design:paramtypes', ctrl.prototype, name) ?? []) as unknown[];
        const fieldsOf = (paramtype: RouteParamtypes) =>
          Object.entries(args)
            .filter(([key, arg]) => Number(key.split(':')[0]) === paramtype && arg.data === undefined)
            .flatMap(([, arg]) => dtoFields(types[arg.index]));
        const bodyFields = fieldsOf(RouteParamtypes.BODY);
        out.push({
          method,
          path,
          params: [...path.matchAll(/:(\w+)/g)].map((m) => m[1]),
          access,
          accessDeclarations: [handler, ctrl].filter((target) => Reflect.hasOwnMetadata(ACCESS_KEY, target)).length,
          ...(sensitive ? { stepUp: sensitive.when ? 'conditional' : 'always' } : {}),
          bodyKeys: bodyFields.map((f) => f.name),
          bodyFields,
          queryKeys: fieldsOf(RouteParamtypes.QUERY).map((f) => f.name),
          readsInput: Object.keys(args).some((key) =>
            [RouteParamtypes.BODY, RouteParamtypes.QUERY, RouteParamtypes.PARAM, RouteParamtypes.REQUEST].includes(
              Number(key.split(':')[0]),
            ),
          ),
        });
      }
    }
  }
  return out;
}
