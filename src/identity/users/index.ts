/** What the users feature offers the rest of the server: other features import it from here, never from its files. */
export { CurrentPasswordGuesses } from './current-password-guesses';
export { UserIdDto } from './dto/user-changes.dto';
export { OrganisationQueryDto } from './dto/user-list-query.dto';
export { storeNewPassword } from './store-new-password';
export { accountEmail } from './lifecycle/account-email';
export { ACCOUNT_CHANGED } from './lifecycle/account-changed';
export type { AccountChanged } from './lifecycle/account-changed';
export { AccountLifecycleService } from './lifecycle/account-lifecycle.service';
export type { AccountActor } from './lifecycle/account-lifecycle.service';
export { UsersModule } from './users.module';
export { UsersService } from './users.service';
