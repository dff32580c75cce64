import { toaster } from '@/components/ui/toaster';
import type { Toast } from '../login-machine';

/** A login message as a toast: for the steps after the e-mail and the pages already in Chakra. */
export function toast(t: Toast, duration?: number) {
  toaster.create({ type: t.type, title: t.title, description: t.description, duration });
}
