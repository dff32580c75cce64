import type { LoginState } from '../login-machine';

/** What every login step receives from the card (kept here so the steps never import the card that renders them). */
export interface StepProps {
  login: LoginState;
  update: (patch: Partial<LoginState>) => void;
}
