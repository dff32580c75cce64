import { BuiltServer } from './built-server.js';

export interface ShutdownRound {
  round: number;
  /** Outcomes by status code, or by the error that cut the request. */
  statuses: Record<string, number>;
  errors: string[];
  acknowledged: number;
  missing: string[];
  readiness: number | string;
  readinessConnection?: string;
  unansweredAtSignal: number;
  exit: { code: number | null; signal: string | null };
  stopMs: number;
}
export interface Outcome {
  status?: number;
  connection?: string;
  body?: string;
  error?: string;
}
export const SUPPORT_EMAIL: string;
export const SUPPORT_PASSWORD: string;
export function shutdownRounds(options: {
  mainJs: string;
  dataDir: string;
  rounds?: number;
  signIns?: number;
  writes?: number;
  env?: Record<string, string>;
}): Promise<ShutdownRound[]>;
export function start(mainJs: string, dataDir: string, env?: Record<string, string>): Promise<BuiltServer>;
export function signIn(base: string): Promise<string>;
export function request(
  base: string,
  method: string,
  path: string,
  options?: { body?: unknown; token?: string; agent?: unknown; onWritten?: () => void },
): Promise<Outcome>;
