import { Alert, Box, Button, Card, Code, Heading, HStack, Spinner, Stack, Table, Text } from '@chakra-ui/react';
import { errorMessage } from '@/lib/api';
import { type SsoTestResult, useTestResult } from '../api/sso-api';
import { SSO_PAGE_TEXTS as T } from '../federation-texts';

const STATUS: Record<SsoTestResult['outcome'], 'success' | 'warning' | 'error'> = {
  SIGNS_IN: 'success',
  CREATES_ACCOUNT: 'success',
  REFUSED: 'warning',
  FAILED: 'error',
};

/** The end of 'Test connection': what the provider sent, and what a real sign-in of that person would do. */
export function TestResultPanel({
  connectionId,
  resultKey,
  onClose,
}: {
  connectionId: number;
  resultKey: string;
  onClose: () => void;
}) {
  const result = useTestResult(connectionId, resultKey);
  const r = result.data;
  return (
    <Card.Root data-testid="sso-test-result" borderColor="blue.solid">
      <Card.Header>
        <Heading as="h2" size="md">
          {r ? `Test of ${r.connectionName}` : 'Connection test'}
        </Heading>
      </Card.Header>
      <Card.Body>
        <Stack gap="4">
          {result.isLoading && <Spinner aria-label="Loading the test result" />}
          {result.isError && (
            <Alert.Root status="error">
              <Alert.Indicator />
              <Alert.Title>{errorMessage(result.error, T.TEST_LOAD_FAILED)}</Alert.Title>
            </Alert.Root>
          )}
          {r && (
            <>
              <Alert.Root status={STATUS[r.outcome]} data-testid="sso-test-outcome">
                <Alert.Indicator />
                <Alert.Content>
                  <Alert.Title>{T.TEST_TITLES[r.outcome]}</Alert.Title>
                  <Alert.Description>{r.message}</Alert.Description>
                </Alert.Content>
              </Alert.Root>
              {r.detail && (
                <Text fontSize="sm">
                  {T.TEST_DETAIL}: <Code data-testid="sso-test-detail">{r.detail}</Code>
                </Text>
              )}
              {r.claims.length > 0 && (
                <Box overflowX="auto">
                  <Table.Root size="sm" data-testid="sso-test-claims">
                    <Table.Caption captionSide="top" textAlign="start" fontWeight="semibold">
                      {T.TEST_CLAIMS}
                    </Table.Caption>
                    <Table.Header>
                      <Table.Row>
                        <Table.ColumnHeader>Claim</Table.ColumnHeader>
                        <Table.ColumnHeader>Value</Table.ColumnHeader>
                      </Table.Row>
                    </Table.Header>
                    <Table.Body>
                      {r.claims.map((c) => (
                        <Table.Row key={c.name}>
                          <Table.Cell fontFamily="mono" wordBreak="break-all">
                            {c.name}
                          </Table.Cell>
                          <Table.Cell wordBreak="break-all">{c.value}</Table.Cell>
                        </Table.Row>
                      ))}
                    </Table.Body>
                  </Table.Root>
                </Box>
              )}
            </>
          )}
          <HStack>
            <Button size="sm" variant="outline" onClick={onClose}>
              Close
            </Button>
          </HStack>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
