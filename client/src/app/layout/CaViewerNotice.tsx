import { Alert } from '@chakra-ui/react';
import { CA_VIEWER_NOTICE } from '@/config/menu-model';

/** The limited-role notice under the header bar (spec 001 §1). */
export function CaViewerNotice() {
  return (
    <Alert.Root
      status="info"
      variant="subtle"
      borderRadius="0"
      py="2"
      h="40px"
      alignItems="center"
      data-testid="ca-viewer-notice"
    >
      <Alert.Indicator />
      <Alert.Description fontSize="sm" truncate>
        {CA_VIEWER_NOTICE}
      </Alert.Description>
    </Alert.Root>
  );
}
