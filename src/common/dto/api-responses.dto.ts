import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ErrorBodyCode } from '../../shared/messages';

class FieldErrorDto {
  @ApiProperty({ example: 'domain' }) field!: string;
  @ApiProperty() message!: string;
}

/** The error body of every refused call (CONTRACT 3), for the OpenAPI description of 4xx answers. */
export class ApiErrorDto {
  @ApiProperty({ enum: [false] }) success!: false;
  @ApiProperty({ example: 400 }) statusCode!: number;
  @ApiProperty({ example: 'VALIDATION_FAILED' }) code!: ErrorBodyCode;
  @ApiProperty({ example: 'Enter a domain name such as example.com.' }) message!: string;
  @ApiPropertyOptional({ description: 'Why, where the code has several causes (e.g. NO_RECORD, WRONG_VALUE)' })
  reason?: string;
  @ApiPropertyOptional({ type: [FieldErrorDto], description: 'VALIDATION_FAILED: each refused field and why' })
  errors?: FieldErrorDto[];
}

/** `{success: true}`: the answer of a call whose effect is all there is to report. */
export class SuccessDto {
  @ApiProperty({ enum: [true] }) success!: true;
}
