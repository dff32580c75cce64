import { useEffect } from 'react';
import { AVAILABILITY_MESSAGES } from '@shared/messages';
import { serviceAvailability } from '@/lib/service-availability';
import { toaster } from './toaster';

const TOAST_ID = 'service-unavailable';

/**
 * One calm, non-blocking toast while the server says it is briefly unavailable (503 SERVICE_UNAVAILABLE), however
 * many calls meet it; it goes as soon as the server answers a call again. Reads are retried meanwhile (lib/api.ts).
 */
export function ServiceUnavailableNotice() {
  useEffect(() => {
    const show = (unavailable: boolean) => {
      if (unavailable) toaster.create({ id: TOAST_ID, type: 'loading', title: AVAILABILITY_MESSAGES.RETRYING });
      else if (toaster.isVisible(TOAST_ID)) toaster.dismiss(TOAST_ID);
    };
    show(serviceAvailability.unavailable);
    return serviceAvailability.subscribe(show);
  }, []);
  return null;
}
