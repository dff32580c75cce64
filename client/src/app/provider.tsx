import { ReactNode, useState } from 'react';
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from '@/components/ui/toaster';
import { AuthProvider } from '@/lib/auth';
import { StepUpDialog } from '@/features/step-up';
import { system } from './theme';

export function createQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
}

export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        {/* Before the pages: its subscription must exist when a page toasts from its first effect. */}
        <Toaster />
        <AuthProvider>
          {children}
          {/* Any call that answers STEP_UP_REQUIRED opens it (lib/api.ts), wherever the person is. */}
          <StepUpDialog />
        </AuthProvider>
      </QueryClientProvider>
    </ChakraProvider>
  );
}
