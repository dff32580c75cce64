import { ReactNode, useState } from 'react';
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ServiceUnavailableNotice } from '@/components/ui/service-unavailable-notice';
import { Toaster } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api';
import { isServiceUnavailable } from '@/lib/service-availability';
import { AuthProvider } from '@/lib/auth';
import { StepUpDialog } from '@/features/identity/step-up';
import { system } from './theme';

/** Further tries of a query whose reads lib/api.ts already retried while the server was unavailable. */
const UNAVAILABLE_QUERY_RETRIES = 2;

/**
 * A failed query is tried once more; one that met SERVICE_UNAVAILABLE (lib/api.ts has already retried its read a few
 * times) twice more after a pause, so that a page rides out an outage of half a minute or so and then shows its data.
 */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) =>
          failures <
          (error instanceof ApiError && isServiceUnavailable(error.status, error.body) ? UNAVAILABLE_QUERY_RETRIES : 1),
        refetchOnWindowFocus: false,
      },
    },
  });
}

export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        {/* Before the pages: its subscription must exist when a page toasts from its first effect. */}
        <Toaster />
        <ServiceUnavailableNotice />
        <AuthProvider>
          {children}
          {/* Any call that answers STEP_UP_REQUIRED opens it (lib/api.ts), wherever the person is. */}
          <StepUpDialog />
        </AuthProvider>
      </QueryClientProvider>
    </ChakraProvider>
  );
}
