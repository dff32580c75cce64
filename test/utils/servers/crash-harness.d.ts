export interface CrashRound {
  round: number;
  acknowledged: number;
  missing: string[];
}
export function crashRounds(options: {
  mainJs: string;
  dataDir: string;
  rounds?: number;
  workers?: number;
  minMs?: number;
  maxMs?: number;
}): Promise<CrashRound[]>;
