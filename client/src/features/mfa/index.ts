/** What other features may use of the MFA feature (the profile page shows its panel). */
export { MfaPanel } from './components/MfaPanel';
export { MFA_TEXTS } from './texts';
