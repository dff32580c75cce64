import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { trim } from '../../../platform/web/transforms';
import { NAME_MAX, VALIDATION_MESSAGES as V } from '../../../shared/validation';
import { CreateUserGroupRequest } from '../../../shared/api-types';

/** POST /api/user-groups */
export class CreateUserGroupDto implements CreateUserGroupRequest {
  @ApiProperty({ example: 'Tax team' })
  @Transform(trim)
  @IsString({ message: V.GROUP_NAME_EMPTY })
  @IsNotEmpty({ message: V.GROUP_NAME_EMPTY })
  @MaxLength(NAME_MAX, { message: V.GROUP_NAME_TOO_LONG })
  name!: string;
}
