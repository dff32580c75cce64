/** What other features may use of the users feature (the profile page, the user groups of a user). */
export { usersApi, useSingleUser, type ProfileFields } from './api/users-api';
export { displayName, isWriter, USER_TEXTS } from './account';
