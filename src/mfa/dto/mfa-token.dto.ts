import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';

export class MfaTokenDto {
  @ApiProperty({ example: '123456' })
  @Matches(/^\d{6}$/, { message: 'MFA must contain exactly 6 digits' })
  token!: string;
}
