import { useRef, useState } from 'react';
import { Button, Card, Field, Heading, HStack, Input, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { LOGO_MIME_TYPES, ORG_ADMIN_MESSAGES as M } from '@shared/administration/organisation-admin';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { checkLogoFile, uploadLogo } from '../api/logo-api';
import { queryKeys } from '@/lib/query-keys';

/** How long the success toast shows before the page reloads (spec 001 §4: '... then reload the page'). */
export const RELOAD_DELAY_MS = 1500;

/**
 * Spec 001 §2.11/§4/§8: choose an image (at most 10 MB), upload it in three steps, then reload.
 * A failure shows the server's message or 'Failed to upload logo' and clears the chooser.
 */
export function LogoUploader({ reload = () => window.location.reload() }: { reload?: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);

  function clear() {
    setFile(null);
    if (input.current) input.current.value = '';
  }

  function fail(message: string) {
    toaster.create({ type: 'error', title: message });
    clear();
  }

  function choose(chosen: File | undefined) {
    if (!chosen) return clear();
    const problem = checkLogoFile(chosen);
    if (problem) return fail(problem);
    setFile(chosen);
  }

  async function upload() {
    if (!file) return;
    setBusy(true);
    try {
      await uploadLogo(file);
      toaster.create({ type: 'success', title: M.LOGO_UPLOADED });
      await queryClient.invalidateQueries({ queryKey: queryKeys.logo });
      setTimeout(reload, RELOAD_DELAY_MS);
    } catch (error) {
      fail(errorMessage(error, M.LOGO_FAILED));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card.Root data-testid="logo-uploader">
      <Card.Header>
        <Heading as="h2" size="md">
          Logo
        </Heading>
      </Card.Header>
      <Card.Body>
        <Field.Root>
          <Field.Label>Logo file</Field.Label>
          <HStack gap="3" align="center" w="full">
            <Input
              ref={input}
              type="file"
              accept={LOGO_MIME_TYPES.join(',')}
              p="1"
              maxW="sm"
              onChange={(e) => choose(e.target.files?.[0])}
            />
            <Button colorPalette="blue" onClick={upload} disabled={!file} loading={busy}>
              Upload logo
            </Button>
          </HStack>
          <Field.HelperText>
            <Text as="span">Image only (PNG, JPEG, GIF or WebP), max 10 MB.</Text>
          </Field.HelperText>
        </Field.Root>
      </Card.Body>
    </Card.Root>
  );
}
