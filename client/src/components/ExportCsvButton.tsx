import { useState } from 'react';
import { Button, HStack, Progress, Text } from '@chakra-ui/react';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { downloadFile, DownloadProgress, formatBytes } from '@/lib/download';

/**
 * 'Export CSV': downloads `path` (the list's filters already in its query) and shows the bytes received
 * while the server streams the file; the button stays disabled until the download ends.
 */
export function ExportCsvButton({ path, fileName }: { path: string; fileName: string }) {
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const run = async () => {
    setProgress({ received: 0, total: null });
    try {
      await downloadFile(path, fileName, setProgress);
      toaster.create({ type: 'success', title: 'Export finished', description: fileName });
    } catch (e) {
      toaster.create({ type: 'error', title: 'The export failed', description: errorMessage(e, 'Please try again.') });
    } finally {
      setProgress(null);
    }
  };
  return (
    <HStack gap="2">
      <Button
        size="sm"
        variant="outline"
        colorPalette="blue"
        onClick={run}
        loading={progress !== null}
        loadingText="Exporting…"
        data-testid="export-csv"
      >
        Export CSV
      </Button>
      {progress && (
        <HStack gap="2" data-testid="export-progress" aria-live="polite">
          <Progress.Root
            value={progress.total ? Math.round((100 * progress.received) / progress.total) : null}
            size="xs"
            width="24"
            colorPalette="blue"
            aria-label="Export progress"
          >
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
          <Text fontSize="xs" color="fg.muted">
            {formatBytes(progress.received)}
          </Text>
        </HStack>
      )}
    </HStack>
  );
}
