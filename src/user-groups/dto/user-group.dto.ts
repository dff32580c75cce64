import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { trim } from '../../common/transforms';

/** POST /api/user-groups */
export class CreateUserGroupDto {
  @ApiProperty({ example: 'Tax team' })
  @Transform(trim)
  @IsString({ message: 'Group name must not be empty' })
  @IsNotEmpty({ message: 'Group name must not be empty' })
  @MaxLength(100, { message: 'Group name must be less than or equal to 100 characters.' })
  name!: string;
}
