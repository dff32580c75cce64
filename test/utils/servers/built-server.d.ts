import { ChildProcess } from 'node:child_process';

export interface BuiltServer {
  child: ChildProcess;
  base: string;
  port: number;
  output(): string;
}
export function buildServer(): string;
export function startServer(mainJs: string, env: Record<string, string>): Promise<BuiltServer>;
export function stopServer(server: BuiltServer, signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
