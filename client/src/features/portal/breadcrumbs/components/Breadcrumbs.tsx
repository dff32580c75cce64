import { Breadcrumb } from '@chakra-ui/react';
import { Link as RouterLink, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { HomeIcon } from '@/components/ui/icons';
import { breadcrumbs } from '../breadcrumbs';

/** Intermediate crumbs link only to paths that are pages. */
const PAGES = new Set<string>((Object.values(paths) as unknown[]).filter((p): p is string => typeof p === 'string'));

/** The trail under the header (spec 001 §2.3); not shown on the home page itself. */
export function Breadcrumbs() {
  const { pathname } = useLocation();
  const crumbs = breadcrumbs(pathname, (p) => PAGES.has(p));
  if (crumbs.length === 0) return null;
  return (
    <Breadcrumb.Root size="sm" pt="3" data-testid="breadcrumbs">
      <Breadcrumb.List>
        <Breadcrumb.Item data-testid="crumb">
          <Breadcrumb.Link asChild>
            <RouterLink to="/" aria-label="Home">
              <HomeIcon boxSize="4" />
            </RouterLink>
          </Breadcrumb.Link>
        </Breadcrumb.Item>
        {crumbs.map((c, i) => (
          <Crumb key={`${i}-${c.label}`} label={c.label} to={c.to} last={i === crumbs.length - 1} />
        ))}
      </Breadcrumb.List>
    </Breadcrumb.Root>
  );
}

function Crumb({ label, to, last }: { label: string; to?: string; last: boolean }) {
  return (
    <>
      <Breadcrumb.Separator />
      <Breadcrumb.Item data-testid="crumb">
        {last ? (
          <Breadcrumb.CurrentLink>{label}</Breadcrumb.CurrentLink>
        ) : to ? (
          <Breadcrumb.Link asChild>
            <RouterLink to={to}>{label}</RouterLink>
          </Breadcrumb.Link>
        ) : (
          <Breadcrumb.Link as="span">{label}</Breadcrumb.Link>
        )}
      </Breadcrumb.Item>
    </>
  );
}
