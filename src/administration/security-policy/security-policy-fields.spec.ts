import { getMetadataStorage } from 'class-validator';
import { getMetadataArgsStorage } from 'typeorm';
import { Organisation, SECURITY_POLICY_COLUMNS } from '../../platform/database/entities/organisation.entity';
import {
  DEFAULT_SECURITY_POLICY,
  SECURITY_POLICY_FIELD_NAMES,
  SECURITY_POLICY_FIELDS,
  SecurityPolicy,
} from '../../shared/administration/security-policy';
import { SecurityPolicyChangeDto } from './dto/security-policy.dto';

/** One field's definition. */
type PolicyField = (typeof SECURITY_POLICY_FIELDS)[keyof SecurityPolicy];

/** Where @nestjs/swagger lists a class's documented properties (':name' each). */
const SWAGGER_PROPERTIES = 'swagger/apiModelPropertiesArray';

/** The column type each kind of field is kept in. */
const COLUMN_TYPES: Record<PolicyField['kind'], string> = {
  flag: 'boolean',
  ranges: 'simple-json',
  whole: 'integer',
  choice: 'varchar',
};

/** A field's default as its column's DEFAULT states it; undefined where the column has none (a null). */
function columnDefault(field: PolicyField): unknown {
  if (field.default === null || ('deploymentDefault' in field && field.deploymentDefault)) return undefined;
  return field.kind === 'ranges' ? JSON.stringify(field.default) : field.default;
}

describe('The security policy, described once (SECURITY_POLICY_FIELDS)', () => {
  const fields = Object.entries(SECURITY_POLICY_FIELDS) as Array<[string, PolicyField]>;

  it.each(fields)("%s is a column of the organisation's row, of its kind, with its default", (name, field) => {
    const column = getMetadataArgsStorage().columns.find((c) => c.target === Organisation && c.propertyName === name);
    expect(column).toBeDefined();
    expect(column!.options.type).toBe(COLUMN_TYPES[field.kind]);
    expect(Boolean(column!.options.nullable)).toBe(columnDefault(field) === undefined);
    expect(column!.options.default).toEqual(columnDefault(field));
  });

  it("the organisation's row marks exactly these fields as the policy's columns", () => {
    expect([...SECURITY_POLICY_COLUMNS].sort()).toEqual([...SECURITY_POLICY_FIELD_NAMES].sort());
  });

  it('the change request validates exactly its fields, and documents each', () => {
    const validated = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(SecurityPolicyChangeDto, '', true, false)
        .map((m) => m.propertyName),
    );
    expect([...validated].sort()).toEqual([...SECURITY_POLICY_FIELD_NAMES].sort());
    const documented = (Reflect.getMetadata(SWAGGER_PROPERTIES, SecurityPolicyChangeDto.prototype) as string[]).map(
      (p) => p.slice(1),
    );
    expect([...documented].sort()).toEqual([...SECURITY_POLICY_FIELD_NAMES].sort());
  });

  it('the policy of an organisation that never set one is each field’s default', () => {
    expect(Object.keys(DEFAULT_SECURITY_POLICY)).toEqual(SECURITY_POLICY_FIELD_NAMES);
    for (const [name, field] of fields)
      expect(DEFAULT_SECURITY_POLICY[name as keyof typeof DEFAULT_SECURITY_POLICY]).toEqual(field.default);
  });
});
