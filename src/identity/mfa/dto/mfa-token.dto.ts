import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { MFA_CODE_PATTERN, VALIDATION_MESSAGES as V } from '../../../shared/validation';
import { MfaTokenRequest } from '../../../shared/api-types';

export class MfaTokenDto implements MfaTokenRequest {
  @ApiProperty({ example: '123456' })
  @Matches(MFA_CODE_PATTERN, { message: V.MFA_CODE_FORMAT })
  token!: string;
}
