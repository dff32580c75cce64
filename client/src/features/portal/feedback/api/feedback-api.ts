import type { FeedbackRequest } from '@shared/api-types';
import { api } from '@/lib/api';

export function sendFeedback(body: FeedbackRequest) {
  return api.post<{ success: true; id: number }>('api/userFeedback/add', body);
}
