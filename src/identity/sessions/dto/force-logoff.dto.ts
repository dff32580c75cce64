import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsInt } from 'class-validator';
import { ORG_ADMIN_MESSAGES as M } from '../../../shared/administration/organisation-admin';
import { ForceLogoffRequest } from '../../../shared/api-types';

/** POST api/userLoginActivities/force-logoff (spec 001 §7). */
export class ForceLogoffDto implements ForceLogoffRequest {
  @IsArray({ message: M.SELECT_USERS })
  @ArrayNotEmpty({ message: M.SELECT_USERS })
  @ArrayMaxSize(1000, { message: 'At most 1000 users at a time' })
  @IsInt({ each: true, message: 'userIds must be user ids' })
  userIds!: number[];
}
