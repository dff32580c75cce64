/** What the user-groups feature offers the rest of the server: other features import it from here, never from its files. */
export { UserGroupMember } from './entities/user-group-member.entity';
export { UserGroup } from './entities/user-group.entity';
