import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The error body of every refusal (docs/product-rules.md §3), for the OpenAPI document. */
export class ErrorResponse {
  @ApiProperty({ enum: [false] })
  success!: false;

  @ApiProperty({ example: 403 })
  statusCode!: number;

  @ApiProperty({ example: 'STEP_UP_REQUIRED' })
  code!: string;

  @ApiProperty({ example: 'Please confirm it is you to continue.' })
  message!: string;

  @ApiPropertyOptional({ description: 'Each refused field and why (validation failures).' })
  errors?: Array<{ field: string; message: string }>;
}
