import { ApiPropertyOptional } from '@nestjs/swagger';
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
import { SECURITY_POLICY_LIMITS as L } from '../../../shared/administration/security-policy';
import { SUPPORT_ACCESS_POLICIES, SupportAccessPolicy } from '../../../shared/portal/support-access';

/** A field that may be left out, or null (no limit), or else follows its rules. */
const OmitNullOrValid = () => ValidateIf((_o, value) => value !== undefined && value !== null);

const whole = (name: string, min: number, max: number) =>
  `${name} must be a whole number from ${min} to ${max}, or null for no limit.`;

/** PUT /api/organisations/{id}/security-policy: the fields sent change, the others stay. */
export class SecurityPolicyChangeDto {
  @ApiPropertyOptional({ description: 'Members without a second factor enrol before anything else works.' })
  @OmitOrValid()
  @IsBoolean({ message: 'mfaRequired must be true or false.' })
  mfaRequired?: boolean;

  @ApiPropertyOptional({
    description: "Members on the organisation's verified domains sign in only through its provider.",
  })
  @OmitOrValid()
  @IsBoolean({ message: 'ssoRequired must be true or false.' })
  ssoRequired?: boolean;

  @ApiPropertyOptional({
    type: [String],
    maxItems: L.IP_RANGES_MAX,
    example: ['203.0.113.0/24', '2001:db8::/32'],
    description: 'IPv4 and IPv6 CIDR ranges (a single address is its /32 or /128); empty allows every address.',
  })
  @OmitOrValid()
  @IsArray({ message: 'allowedIpRanges must be a list of address ranges.' })
  @ArrayMaxSize(L.IP_RANGES_MAX, { message: `allowedIpRanges holds at most ${L.IP_RANGES_MAX} ranges.` })
  @IsString({ each: true, message: 'Each address range must be text, for example 203.0.113.0/24.' })
  @MaxLength(L.IP_RANGE_TEXT_MAX, { each: true, message: 'An address range is at most 64 characters.' })
  allowedIpRanges?: string[];

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: L.IDLE_MINUTES_MIN, maximum: L.IDLE_MINUTES_MAX })
  @OmitNullOrValid()
  @IsInt({ message: whole('sessionIdleMinutes', L.IDLE_MINUTES_MIN, L.IDLE_MINUTES_MAX) })
  @Min(L.IDLE_MINUTES_MIN, { message: whole('sessionIdleMinutes', L.IDLE_MINUTES_MIN, L.IDLE_MINUTES_MAX) })
  @Max(L.IDLE_MINUTES_MAX, { message: whole('sessionIdleMinutes', L.IDLE_MINUTES_MIN, L.IDLE_MINUTES_MAX) })
  sessionIdleMinutes?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: L.MAX_HOURS_MIN, maximum: L.MAX_HOURS_MAX })
  @OmitNullOrValid()
  @IsInt({ message: whole('sessionMaxHours', L.MAX_HOURS_MIN, L.MAX_HOURS_MAX) })
  @Min(L.MAX_HOURS_MIN, { message: whole('sessionMaxHours', L.MAX_HOURS_MIN, L.MAX_HOURS_MAX) })
  @Max(L.MAX_HOURS_MAX, { message: whole('sessionMaxHours', L.MAX_HOURS_MIN, L.MAX_HOURS_MAX) })
  sessionMaxHours?: number | null;

  @ApiPropertyOptional({ minimum: L.PASSWORD_MIN_LENGTH_MIN, maximum: L.PASSWORD_MIN_LENGTH_MAX })
  @OmitOrValid()
  @IsInt({ message: passwordLengthMessage() })
  @Min(L.PASSWORD_MIN_LENGTH_MIN, { message: passwordLengthMessage() })
  @Max(L.PASSWORD_MIN_LENGTH_MAX, { message: passwordLengthMessage() })
  passwordMinLength?: number;

  @ApiPropertyOptional({
    enum: SUPPORT_ACCESS_POLICIES,
    description: "Whether E-Support may act as a member: never, with a site admin's approval, or always.",
  })
  @OmitOrValid()
  @IsIn(SUPPORT_ACCESS_POLICIES, { message: `supportAccess must be one of ${SUPPORT_ACCESS_POLICIES.join(', ')}.` })
  supportAccess?: SupportAccessPolicy;

  @ApiPropertyOptional({ description: 'Members may delete their own account (DELETE /api/me).' })
  @OmitOrValid()
  @IsBoolean({ message: 'selfDeletion must be true or false.' })
  selfDeletion?: boolean;

  @ApiPropertyOptional({
    minimum: L.AUDIT_RETENTION_DAYS_MIN,
    maximum: L.AUDIT_RETENTION_DAYS_MAX,
    description: "Days the organisation's audit events are kept; older ones are deleted daily.",
  })
  @OmitOrValid()
  @IsInt({ message: retentionMessage() })
  @Min(L.AUDIT_RETENTION_DAYS_MIN, { message: retentionMessage() })
  @Max(L.AUDIT_RETENTION_DAYS_MAX, { message: retentionMessage() })
  auditRetentionDays?: number;
}

function retentionMessage(): string {
  return `auditRetentionDays must be a whole number of days from ${L.AUDIT_RETENTION_DAYS_MIN} to ${L.AUDIT_RETENTION_DAYS_MAX}.`;
}

function passwordLengthMessage(): string {
  return `passwordMinLength must be a whole number from ${L.PASSWORD_MIN_LENGTH_MIN} to ${L.PASSWORD_MIN_LENGTH_MAX}.`;
}
