import type { ContactMessage } from '@shared/portal/shell';
import { api } from '@/lib/api';

export function sendContactMessage(body: ContactMessage) {
  return api.post<{ success: true }>('api/users/contact-email/', body);
}
