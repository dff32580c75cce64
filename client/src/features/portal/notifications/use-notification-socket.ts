import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { NotificationItem } from '@shared/portal/notifications';
import { mfaPending } from '@shared/identity/mfa-rules';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { startNotificationSocket } from '@/lib/socket';
import { downloadReport, notificationsApi } from './api/notifications-api';
import { isSilent, notificationToast, processLogPortfolio, warningLogsToast } from './display';
import { queryKeys } from '@/lib/query-keys';

/** Whether the notifications run: authentication validated and the user loaded (MFA enrolment done). */
export function useNotificationsEnabled(): boolean {
  const { isAuthenticated, user } = useAuth();
  return isAuthenticated && !!user && !mfaPending(user);
}

/** Spec 001 §4: processing completion or failure checks for a process log; one found raises the warning-logs toast. */
export async function checkProcessLog(item: NotificationItem): Promise<void> {
  const portfolioId = processLogPortfolio(item);
  if (!portfolioId) return;
  try {
    const { url, fileExists } = await notificationsApi.processLogUrl(portfolioId);
    if (!fileExists || !url) return;
    const spec = warningLogsToast(item);
    toaster.create({
      ...spec,
      duration: 15_000,
      action: {
        label: 'Download',
        onClick: () => {
          downloadReport(url, `${portfolioId}.log`).catch((e) =>
            toaster.create({ type: 'error', title: errorMessage(e, 'Failed to download the log.') }),
          );
        },
      },
    });
  } catch {
    // The check is a courtesy: its failure shows nothing.
  }
}

/** How many notification ids the socket's handler remembers, to recognise one it has shown already. */
export const SEEN_IDS_MAX = 1000;

/**
 * Handles one socket message: the list grows (silent types excepted), its toast shows, the process log is checked.
 * A notification can arrive twice (an instance replays what it missed while Redis was away, and a late copy may
 * follow): each id is handled once.
 */
export function useNotificationHandler() {
  const queryClient = useQueryClient();
  const seen = useRef(new Set<number>());
  return (item: NotificationItem) => {
    if (seen.current.has(item.notificationId)) return;
    seen.current.add(item.notificationId);
    if (seen.current.size > SEEN_IDS_MAX) seen.current.delete(seen.current.values().next().value as number);
    if (!isSilent(item.type)) {
      queryClient.setQueryData<NotificationItem[]>(queryKeys.notifications, (old) => [
        item,
        ...(old ?? []).filter((n) => n.notificationId !== item.notificationId),
      ]);
    }
    const toast = notificationToast(item);
    if (toast) toaster.create(toast);
    void checkProcessLog(item);
  };
}

/**
 * Spec 001 §4: when authentication validates the socket is configured; when it does not, the
 * notifications stop. Every (re)connection reloads the list, so nothing sent meanwhile is missed.
 */
export function useNotificationSocket(): boolean {
  const [connected, setConnected] = useState(false);
  const enabled = useNotificationsEnabled();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const handle = useNotificationHandler();
  const userId = user?.id;

  useEffect(() => {
    if (!enabled) return;
    const connection = startNotificationSocket({
      onNotification: (item) => handle(item),
      onConnect: () => {
        setConnected(true);
        void queryClient.invalidateQueries({ queryKey: queryKeys.notifications });
      },
      onDisconnect: () => setConnected(false),
      // Spec 001 §2.14: the User sessions page shows a sign-in or a log-off as it happens.
      onSessionsChanged: () => void queryClient.invalidateQueries({ queryKey: queryKeys.sessions }),
      // The socket stops by itself. Signing out is left to the HTTP layer (its next call meets the
      // ended session), so flows that end sessions on purpose (MFA change) keep their own messages.
      onSessionEnded: () => setConnected(false),
    });
    return () => {
      connection.stop();
      setConnected(false);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled, userId, queryClient]);
  return connected;
}
