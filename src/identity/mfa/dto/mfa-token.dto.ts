import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { LIMITS } from '../../../shared/limits';
import { MFA_CODE_PATTERN, VALIDATION_MESSAGES as V } from '../../../shared/validation';
import { MfaTokenRequest } from '../../../shared/api-types';

export class MfaTokenDto implements MfaTokenRequest {
  @ApiProperty({ description: `The ${LIMITS.MFA_CODE_LENGTH} digits of the authenticator app's or e-mailed code` })
  @Matches(MFA_CODE_PATTERN, { message: V.MFA_CODE_FORMAT })
  token!: string;
}
