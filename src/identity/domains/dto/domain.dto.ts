import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Matches, MaxLength } from 'class-validator';
import { WholeNumberField } from '../../../platform/web/dto-validation';
import { domainToASCII } from 'node:url';
import {
  DOMAIN_MAX,
  DOMAIN_MESSAGES,
  DOMAIN_PATTERN,
  isUnicodeDomain,
  normaliseDomain,
  UNICODE_DOMAIN_PATTERN,
} from '../../../shared/identity/domains';

/** Trimmed, lower-cased, final dot dropped, and a Unicode name turned into its xn-- form (which DNS holds). */
const toStoredDomain = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  const typed = normaliseDomain(value);
  // Only a name of letters, digits, hyphens and dots is converted: domainToASCII parses a whole URL host and
  // would turn 'example.com/login' into 'example.com'. Its '' (no domain name) leaves the pattern to refuse.
  return isUnicodeDomain(typed) && UNICODE_DOMAIN_PATTERN.test(typed) ? domainToASCII(typed) || typed : typed;
};

/** POST /api/domains */
export class ClaimDomainDto {
  @ApiProperty({ example: 'example.com', description: 'A domain name; Unicode names are stored in their xn-- form.' })
  @Transform(toStoredDomain)
  @IsString({ message: DOMAIN_MESSAGES.INVALID })
  @MaxLength(DOMAIN_MAX, { message: DOMAIN_MESSAGES.INVALID })
  @Matches(DOMAIN_PATTERN, { message: DOMAIN_MESSAGES.INVALID })
  domain!: string;
}

/** ?organisationId= of the domain routes: E-Support names the organisation it works on. */
export class DomainOrganisationQueryDto {
  @WholeNumberField('organisationId', {
    description: 'E-Support only: the organisation to work on (default: the caller’s own)',
  })
  organisationId?: number;
}
