export interface RollingRestartFigures {
  reads: number;
  /** Reads that succeeded on a second or later try. */
  readRetries: number;
  /** Reads that failed after their tries: the status or 'network'. */
  readFailures: string[];
  /** Names of the user groups whose creation was acknowledged (201). */
  acknowledged: string[];
  writeFailures: string[];
  exits: Array<{ code: number | null; signal: string | null }>;
  /** From SIGTERM to serving again, per instance. */
  restartMs: number[];
  socketGapsMs: number[];
  socketsStillLost: number;
  nginxErrors: string;
}
export function rollingRestart(options: {
  mainJs: string;
  env: (instance: number) => Record<string, string>;
  users: string[];
  password: string;
  sockets?: number;
  steadyMs?: number;
  /** false: the same load for about as long without restarting (the baseline of the benchmark). */
  restart?: boolean;
  log?: (line: string) => void;
}): Promise<RollingRestartFigures>;
export function startNginx(upstreams: number[]): Promise<{ base: string; log(): string; stop(): Promise<void> }>;
