import { Box } from '@chakra-ui/react';
import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { SHELL_LIMITS } from '@shared/portal/shell';

/** A thin bar (#29d, spec 001 §9) across the top while any call is under way. */
export function LoadingBar() {
  const busy = useIsFetching() + useIsMutating() > 0;
  if (!busy) return null;
  return (
    <Box
      position="fixed"
      top="0"
      left="0"
      h="3px"
      w="100%"
      zIndex="toast"
      bg={SHELL_LIMITS.LOADING_BAR_COLOR}
      role="progressbar"
      aria-label="Loading"
      data-testid="loading-bar"
      css={{
        animation: 'loading-bar 1.2s ease-in-out infinite',
        '@keyframes loading-bar': {
          '0%': { transform: 'scaleX(0.1)', transformOrigin: 'left' },
          '100%': { transform: 'scaleX(1)', transformOrigin: 'left' },
        },
      }}
    />
  );
}
