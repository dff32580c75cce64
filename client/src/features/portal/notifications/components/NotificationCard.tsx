import { Badge, Box, Button, CloseButton, HStack, Stack, Text } from '@chakra-ui/react';
import { Link } from 'react-router';
import type { NotificationItem } from '@shared/portal/notifications';
import { SUPPORT_ACCESS_MESSAGES } from '@shared/portal/support-access';
import { paths } from '@/config/paths';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { downloadReport } from '../api/notifications-api';
import { formatNotificationDate } from '@/lib/formats';
import { displayStatus, failureMessage, notificationDetails, notificationTitle, showDownloadLink } from '../display';

const statusPalette = (status: string) =>
  status === 'FAILED'
    ? 'red'
    : ['DONE', 'COMPLETED', 'SUCCESS'].includes(status)
      ? 'green'
      : status === 'NOT STARTED' || status === 'SCHEDULED'
        ? 'gray'
        : 'blue';

/** One notification of the panel (spec 001 §4 'Notification display'). */
export function NotificationCard({
  item,
  onDismiss,
  dismissing,
}: {
  item: NotificationItem;
  onDismiss: () => void;
  dismissing?: boolean;
}) {
  const status = displayStatus(item);
  const failure = failureMessage(item);
  const link = item.content.downloadLink;

  const download = async () => {
    if (!link) return;
    try {
      await downloadReport(link, item.content.fileName);
    } catch (e) {
      toaster.create({
        type: 'error',
        title: 'Failed to download the report',
        description: errorMessage(e, 'Please try again.'),
      });
    }
  };

  return (
    <Box
      as="li"
      listStyleType="none"
      borderWidth="1px"
      rounded="md"
      p="3"
      bg={item.read ? 'bg' : 'bg.subtle'}
      data-testid="notification-item"
      data-type={item.type}
    >
      <HStack align="start" justify="space-between" gap="2">
        <Stack gap="1" minW="0" flex="1">
          <HStack gap="2" wrap="wrap">
            <Text fontWeight="semibold" fontSize="sm">
              {notificationTitle(item)}
            </Text>
            <Badge size="sm" colorPalette={statusPalette(status)} data-testid="notification-status">
              {status}
            </Badge>
          </HStack>
          {notificationDetails(item).map((line, i) => (
            <Text key={i} fontSize="sm" color="fg.muted" wordBreak="break-word">
              {line}
            </Text>
          ))}
          {failure && (
            <Text fontSize="sm" color="red.600" wordBreak="break-word" data-testid="notification-failure">
              {failure}
            </Text>
          )}
          <HStack gap="3">
            <Text fontSize="xs" color="fg.subtle">
              {formatNotificationDate(item.date)}
            </Text>
            {showDownloadLink(item) && (
              <Button
                size="xs"
                variant="plain"
                colorPalette="blue"
                px="0"
                onClick={download}
                disabled={!link}
                title={link ? 'Valid for one hour' : 'No file is available'}
              >
                Download
              </Button>
            )}
            {item.content.subCategory === SUPPORT_ACCESS_MESSAGES.NOTIFICATION_TITLE && (
              <Button size="xs" variant="plain" colorPalette="blue" px="0" asChild>
                <Link to={paths.supportAccess}>{SUPPORT_ACCESS_MESSAGES.NOTIFICATION_LINK}</Link>
              </Button>
            )}
          </HStack>
        </Stack>
        <CloseButton size="xs" aria-label="Dismiss" onClick={onDismiss} disabled={dismissing} />
      </HStack>
    </Box>
  );
}
