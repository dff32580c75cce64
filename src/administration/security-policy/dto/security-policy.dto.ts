import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { OmitOrValid } from '../../../platform/web/dto-validation';
import {
  SECURITY_POLICY_FIELDS,
  SecurityPolicy,
  SecurityPolicyChange,
} from '../../../shared/administration/security-policy';
import { SupportAccessPolicy } from '../../../shared/portal/support-access';

/** A field that may be left out, or null (no limit), or else follows its rules. */
const OmitNullOrValid = () => ValidateIf((_o, value) => value !== undefined && value !== null);

/** Decorators as if written one above the other over the property, the first on top (applied last). */
const stacked = (...decorators: PropertyDecorator[]) => applyDecorators(...decorators.reverse());

/** The API's description and the validation of one policy field, read from its definition (SECURITY_POLICY_FIELDS). */
function PolicyField(name: keyof SecurityPolicy): PropertyDecorator {
  const field = SECURITY_POLICY_FIELDS[name];
  const described = field.description === undefined ? {} : { description: field.description };
  switch (field.kind) {
    case 'flag':
      return stacked(
        ApiPropertyOptional(described),
        OmitOrValid(),
        IsBoolean({ message: `${name} must be true or false.` }),
      );
    case 'ranges':
      return stacked(
        ApiPropertyOptional({ type: [String], maxItems: field.maxItems, example: [...field.example], ...described }),
        OmitOrValid(),
        IsArray({ message: `${name} must be a list of address ranges.` }),
        ArrayMaxSize(field.maxItems, { message: `${name} holds at most ${field.maxItems} ranges.` }),
        IsString({ each: true, message: 'Each address range must be text, for example 203.0.113.0/24.' }),
        MaxLength(field.itemMaxLength, {
          each: true,
          message: `An address range is at most ${field.itemMaxLength} characters.`,
        }),
      );
    case 'whole': {
      const message = field.nullable
        ? `${name} must be a whole number from ${field.min} to ${field.max}, or null for no limit.`
        : `${name} must be a whole number${field.unit ? ` of ${field.unit}` : ''} from ${field.min} to ${field.max}.`;
      const shape: ApiPropertyOptions = field.nullable
        ? { type: Number, nullable: true, minimum: field.min, maximum: field.max, ...described }
        : { minimum: field.min, maximum: field.max, ...described };
      return stacked(
        ApiPropertyOptional(shape),
        field.nullable ? OmitNullOrValid() : OmitOrValid(),
        IsInt({ message }),
        Min(field.min, { message }),
        Max(field.max, { message }),
      );
    }
    case 'choice':
      return stacked(
        ApiPropertyOptional({ enum: field.choices, ...described }),
        OmitOrValid(),
        IsIn([...field.choices], { message: `${name} must be one of ${field.choices.join(', ')}.` }),
      );
  }
}

/**
 * PUT /api/organisations/{id}/security-policy: the fields sent change, the others stay. Each field's rules are its
 * definition's (SECURITY_POLICY_FIELDS); security-policy-fields.spec.ts holds this class to that list.
 */
export class SecurityPolicyChangeDto implements SecurityPolicyChange {
  @PolicyField('mfaRequired')
  mfaRequired?: boolean;

  @PolicyField('ssoRequired')
  ssoRequired?: boolean;

  @PolicyField('allowedIpRanges')
  allowedIpRanges?: string[];

  @PolicyField('sessionIdleMinutes')
  sessionIdleMinutes?: number | null;

  @PolicyField('sessionMaxHours')
  sessionMaxHours?: number | null;

  @PolicyField('passwordMinLength')
  passwordMinLength?: number;

  @PolicyField('supportAccess')
  supportAccess?: SupportAccessPolicy;

  @PolicyField('selfDeletion')
  selfDeletion?: boolean;

  @PolicyField('auditRetentionDays')
  auditRetentionDays?: number;
}
