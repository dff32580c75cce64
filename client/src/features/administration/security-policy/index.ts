/** The organisation's security policy page (route users/security-policy), self-contained for a settings tab. */
export { SecurityPolicyPage } from './components/SecurityPolicyPage';
