import { useState } from 'react';
import { Badge, Box, Button, CloseButton, Drawer, Float, IconButton, Portal, Stack, Text } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationItem } from '@shared/portal/notifications';
import { BellIcon } from '@/components/ui/icons';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { notificationsApi } from '../api/notifications-api';
import { isSilent } from '../display';
import { useNotificationSocket, useNotificationsEnabled } from '../use-notification-socket';
import { NotificationCard } from './NotificationCard';
import { queryKeys } from '@/lib/query-keys';

/** The list the panel shows: the stored notifications, grown by the socket, silent types left out. */
export function useNotificationList(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.notifications,
    queryFn: notificationsApi.list,
    enabled,
    staleTime: 30_000,
    select: (items: NotificationItem[]) => items.filter((n) => !isSilent(n.type)),
  });
}

/**
 * The header's bell with its count badge, and the right-hand panel (spec 001 §2.7): header
 * 'Notifications', empty message 'No notifications received', per-item dismiss and Dismiss All
 * (disabled when empty). Also owns the socket's lifecycle (spec 001 §4).
 */
export function NotificationBell() {
  const connected = useNotificationSocket();
  const enabled = useNotificationsEnabled();
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const { data: items = [] } = useNotificationList(enabled);

  // When authentication no longer validates, the panel closes.
  const isOpen = open && enabled;

  const remove = (ids: number[] | 'all') =>
    queryClient.setQueryData<NotificationItem[]>(queryKeys.notifications, (old) =>
      ids === 'all' ? [] : (old ?? []).filter((n) => !ids.includes(n.notificationId)),
    );

  const dismiss = useMutation({
    mutationFn: (id: number) => notificationsApi.dismiss(id),
    onSuccess: (_, id) => remove([id]),
    onError: (e) => toaster.create({ type: 'error', title: errorMessage(e, 'Failed to dismiss the notification.') }),
  });
  const dismissAll = useMutation({
    mutationFn: () => notificationsApi.dismissAll(),
    onSuccess: () => remove('all'),
    onError: (e) => toaster.create({ type: 'error', title: errorMessage(e, 'Failed to dismiss the notifications.') }),
  });

  const count = items.length;
  return (
    <Drawer.Root open={isOpen} onOpenChange={(e) => setOpen(e.open)} placement="end" size="sm">
      <Drawer.Trigger asChild>
        <IconButton
          variant="ghost"
          rounded="full"
          aria-label={count ? `Notifications (${count})` : 'Notifications'}
          data-testid="notification-bell"
          data-connected={connected}
          position="relative"
        >
          <BellIcon />
          {count > 0 && (
            <Float placement="top-end" offset="2">
              <Badge size="xs" variant="solid" colorPalette="red" rounded="full" data-testid="notification-count">
                {count > 99 ? '99+' : count}
              </Badge>
            </Float>
          )}
        </IconButton>
      </Drawer.Trigger>
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content data-testid="notification-panel">
            <Drawer.Header>
              <Drawer.Title>Notifications</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              {count === 0 ? (
                <Text color="fg.muted" textAlign="center" mt="8">
                  No notifications received
                </Text>
              ) : (
                <Stack as="ul" gap="2" m="0" p="0">
                  {items.map((item) => (
                    <NotificationCard
                      key={item.notificationId}
                      item={item}
                      onDismiss={() => dismiss.mutate(item.notificationId)}
                      dismissing={dismiss.isPending && dismiss.variables === item.notificationId}
                    />
                  ))}
                </Stack>
              )}
            </Drawer.Body>
            <Drawer.Footer>
              <Box flex="1" />
              <Button
                variant="outline"
                size="sm"
                onClick={() => dismissAll.mutate()}
                disabled={count === 0 || dismissAll.isPending}
                loading={dismissAll.isPending}
              >
                Dismiss All
              </Button>
            </Drawer.Footer>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close notifications" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
