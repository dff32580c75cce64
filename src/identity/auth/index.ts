/** What the auth feature offers the rest of the server: other features import it from here, never from its files. */
export { AuthModule } from './auth.module';
export { AuthService } from './auth.service';
export type { SignedIn } from './auth.service';
export { LogoutRedirect } from './logout-redirect';
export { LoginThrottleService } from './login-throttle.service';
export { ForgotPasswordService } from './passwords/forgot-password.service';
export { assertMaySignIn } from './sign-in/assert-may-sign-in';
export { SsoRequirement } from './sign-in/sso-requirement';
export type { SignInPolicy } from './sign-in/sso-requirement';
