import type { Toast } from '../login-machine';

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

/** A toast from the card itself, which stays light: the toaster comes with the later steps. */
export function showToast(t: Toast, duration?: number) {
  void loadLaterSteps().then((m) => m.toast(t, duration));
}
