import type { LoginState, Toast } from '../login-machine';

/** What every login step receives from the card (kept here so the steps never import the card that renders them). */
export interface StepProps {
  login: LoginState;
  update: (patch: Partial<LoginState>) => void;
}

/** The steps after the e-mail, and the toaster: loaded when the visitor first touches the card, not before. */
export type LaterStepsModule = Pick<typeof import('./LaterSteps'), 'LaterSteps' | 'Toaster' | 'toast'>;
let laterSteps: Promise<LaterStepsModule> | undefined;
export function loadLaterSteps(): Promise<LaterStepsModule> {
  laterSteps ??= import('./LaterSteps').then(
    ({ LaterSteps, Toaster, toast }) => ({ LaterSteps, Toaster, toast }),
    (e: unknown) => {
      laterSteps = undefined;
      throw e;
    },
  );
  return laterSteps;
}

export function showToast(t: Toast, duration?: number) {
  void loadLaterSteps().then((m) => m.toast(t, duration));
}
