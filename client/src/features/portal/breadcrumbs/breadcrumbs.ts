/**
 * Breadcrumbs of a path (spec 001 §2.3): a home icon, then each segment with hyphens shown as spaces and
 * capitalised; numeric and id-like segments are skipped; a few segments have their own labels; the
 * id under users/profile and users/roles shows 'details', and the security admin edit path shows 'edit'.
 */
export interface Crumb {
  label: string;
  /** Where the crumb leads; undefined for the current page and for paths that are not pages. */
  to?: string;
}

export const SPECIAL_LABELS: Record<string, string> = {
  cgtview: 'CGT View',
  'cpi-data': 'CPI Data',
  login: 'Log In',
  'user-transactions': 'User Transactions',
  'user-transactions-import': 'Import User Transactions',
  usersecurityadmin: 'User Securities',
  'dividend-calc': 'Dividend Calculator',
  sso: 'Single Sign-On',
};

/** Segments under which the next (id) segment reads 'details'. */
const DETAILS_PARENTS = ['profile', 'roles'];

/** Numbers, UUIDs, 24-hex object ids and other long hex or mixed tokens. */
export function isIdLike(segment: string): boolean {
  return (
    /^\d+$/.test(segment) ||
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(segment) ||
    /^[0-9a-f]{16,}$/i.test(segment) ||
    (/^[A-Za-z0-9_]{20,}$/.test(segment) && /\d/.test(segment))
  );
}

/** 'external-data' → 'External data'. */
export function humanise(segment: string): string {
  const special = SPECIAL_LABELS[segment.toLowerCase()];
  if (special) return special;
  const words = segment.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function breadcrumbs(pathname: string, linkable: (path: string) => boolean = () => true): Crumb[] {
  const segments = pathname
    .split('/')
    .filter(Boolean)
    .map((s) => decodeURIComponent(s));
  const crumbs: Crumb[] = [];
  let path = '';
  segments.forEach((segment, i) => {
    path += `/${segment}`;
    const parent = segments[i - 1]?.toLowerCase();
    let label: string | null;
    if (parent && DETAILS_PARENTS.includes(parent) && segments[i - 2]?.toLowerCase() === 'users') label = 'details';
    else if (parent === 'usersecurityadmin' && segment.toLowerCase() === 'edit') label = 'edit';
    else if (isIdLike(segment)) label = null;
    else label = humanise(segment);
    if (label !== null) crumbs.push({ label, to: linkable(path) ? path : undefined });
  });
  if (crumbs.length) crumbs[crumbs.length - 1] = { label: crumbs[crumbs.length - 1].label };
  return crumbs;
}
