import * as ipaddr from 'ipaddr.js';
import { SECURITY_POLICY_LIMITS } from '../../shared/administration/security-policy';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * One CIDR range (or a single address, taken as its /32 or /128) in its canonical text, or null when it is not
 * one. IPv4 must be written as four decimal parts: the legacy forms ipaddr.js also reads ('10.1', '0x0a.0.0.1')
 * are refused, so that what a person reads in the policy is the range that applies.
 */
export function canonicalRange(text: string): string | null {
  const value = text.trim();
  if (value.length === 0 || value.length > SECURITY_POLICY_LIMITS.IP_RANGE_TEXT_MAX) return null;
  const [address, prefix, ...rest] = value.split('/');
  if (rest.length > 0 || (prefix !== undefined && !/^\d{1,3}$/.test(prefix))) return null;
  if (address.includes('.') && !address.includes(':') && !ipaddr.IPv4.isValidFourPartDecimal(address)) return null;
  if (!ipaddr.isValid(address)) return null;
  const parsed = ipaddr.parse(address);
  const bits = prefix === undefined ? (parsed.kind() === 'ipv4' ? 32 : 128) : Number(prefix);
  if (bits > (parsed.kind() === 'ipv4' ? 32 : 128)) return null;
  return `${parsed.toString()}/${bits}`;
}

/** Parsed range lists, by their stored text: the lookup's row carries the same text on every call. */
const parsedLists = new Map<string, Range[]>();
const PARSED_LISTS_MAX = 1000;

function parsedRanges(ranges: readonly string[]): Range[] {
  const key = ranges.join(',');
  let parsed = parsedLists.get(key);
  if (!parsed) {
    parsed = ranges.flatMap((r) => {
      try {
        return [ipaddr.parseCIDR(r)];
      } catch {
        // Stored ranges were checked when saved: one that no longer parses allows nobody.
        return [];
      }
    });
    if (parsedLists.size >= PARSED_LISTS_MAX) parsedLists.clear();
    parsedLists.set(key, parsed);
  }
  return parsed;
}

/**
 * Whether the client address is inside one of the ranges; an empty list allows every address. An IPv4 client seen
 * as an IPv4-mapped IPv6 address ('::ffff:10.0.0.1', as a dual-stack socket reports it) is matched as IPv4. An
 * address that is missing or unreadable is inside no range.
 */
export function addressAllowed(ranges: readonly string[], address: string | null | undefined): boolean {
  if (ranges.length === 0) return true;
  if (!address || !ipaddr.isValid(address)) return false;
  const client = ipaddr.process(address);
  return parsedRanges(ranges).some(([net, bits]) => net.kind() === client.kind() && client.match(net, bits));
}

/** What the session check needs of a session's times and its organisation's lifetimes. */
export interface SessionTimes {
  createdAt: Date;
  /** The latest of its refresh, its last recorded call and the policy's last save. */
  lastActiveAt: Date;
  sessionIdleMinutes: number | null;
  sessionMaxHours: number | null;
}

/** Why the policy ends this session now ('idle', 'policy-max-age'), or null while it may go on. */
export function lifetimeOver(s: SessionTimes, now = Date.now()): 'idle' | 'policy-max-age' | null {
  if (s.sessionMaxHours !== null && now - s.createdAt.getTime() >= s.sessionMaxHours * 3_600_000)
    return 'policy-max-age';
  if (s.sessionIdleMinutes !== null && now - s.lastActiveAt.getTime() >= s.sessionIdleMinutes * 60_000) return 'idle';
  return null;
}

/** A session's last call is written at most this often (the idle limit is in whole minutes, at least five). */
export const LAST_USED_RESOLUTION_MS = 60_000;
