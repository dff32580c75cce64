import { createToaster, Spinner, Stack, Toast, Toaster as ChakraToaster, useChakraContext } from '@chakra-ui/react';
import { errorMessage } from '@/lib/api';

/** The one toaster: top right, above everything (z-index 5000, spec 001 §2.7). Call toaster.create() anywhere. */
export const toaster = createToaster({ placement: 'top-end', pauseOnPageIdle: true, max: 6 });

/** A failed call's toast (a mutation's onError): the server's message, or `fallback` where it gave none. */
export const toastFailure = (fallback: string) => (e: unknown) =>
  toaster.create({ type: 'error', title: errorMessage(e, fallback) });

/** Rendered in place (it is position: fixed), not in a Portal: a portal mounts a render late and would miss toasts from a page's first effect. */
export function Toaster() {
  // Ark sets the group's z-index inline to the largest there is; the theme's toast token (5000) replaces it.
  const zIndex = useChakraContext().token('zIndex.toast');
  return (
    <>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }} style={{ zIndex }} data-testid="toaster">
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }} data-testid="toast" data-type={toast.type}>
            {toast.type === 'loading' ? <Spinner size="sm" color="blue.solid" /> : <Toast.Indicator />}
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </Stack>
            {toast.action && <Toast.ActionTrigger>{toast.action.label}</Toast.ActionTrigger>}
            <Toast.CloseTrigger />
          </Toast.Root>
        )}
      </ChakraToaster>
    </>
  );
}
