import { useEffect, useState } from 'react';
import { Alert, CloseButton, Link } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useLocation } from 'react-router';
import { isAnnouncementPath } from '@shared/portal/shell';
import { paths } from '@/config/paths';
import { dismissAnnouncement, useAnnouncementSummary } from '../api/announcements-api';
import { queryKeys } from '@/lib/query-keys';

/**
 * The announcement banner (spec 001 §2.8, §4): only on /portfolios and paths starting
 * /corporate-actions-view, refetched on each navigation there; the title links to the announcements
 * page; dismissing hides it at once and stays hidden even if the call fails.
 */
export function AnnouncementBanner() {
  const location = useLocation();
  const onPath = isAnnouncementPath(location.pathname);
  const summary = useAnnouncementSummary(onPath);
  const queryClient = useQueryClient();
  const [hiddenId, setHiddenId] = useState<number | null>(null);

  const { refetch } = summary;
  useEffect(() => {
    if (onPath) void refetch();
  }, [onPath, location.key, refetch]);

  const data = summary.data;
  if (
    !onPath ||
    !data?.lastAnnnouncementId ||
    data.isLastAnnouncementDismissed ||
    hiddenId === data.lastAnnnouncementId
  )
    return null;
  const id = data.lastAnnnouncementId;

  const dismiss = async () => {
    setHiddenId(id);
    try {
      await dismissAnnouncement(id);
    } catch {
      // Hidden either way (spec 001 §4: dismissal resets to the hidden default, also on error).
    }
    queryClient.setQueryData(queryKeys.announcements.summary, { ...data, isLastAnnouncementDismissed: true });
  };

  return (
    <Alert.Root status="info" mt="3" alignItems="center" data-testid="announcement-banner">
      <Alert.Indicator />
      <Alert.Title flex="1">
        <Link asChild variant="underline">
          <RouterLink to={paths.announcements}>{data.lastAnnnouncementTitle}</RouterLink>
        </Link>
      </Alert.Title>
      <CloseButton size="sm" aria-label="Dismiss announcement" onClick={dismiss} />
    </Alert.Root>
  );
}
