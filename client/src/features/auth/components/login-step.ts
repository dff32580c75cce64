import { toaster } from '@/components/ui/toaster';
import type { LoginState, Toast } from '../login-machine';

/** What every login step receives from LoginPage (kept here so the steps never import the page that renders them). */
export interface StepProps {
  login: LoginState;
  update: (patch: Partial<LoginState>) => void;
}

export function showToast(t: Toast, duration?: number) {
  toaster.create({ type: t.type, title: t.title, description: t.description, duration });
}
