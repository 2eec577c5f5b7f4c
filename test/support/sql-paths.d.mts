export const SQL_PATHS_DIR_ENV: string;
export const SQL_PATHS_FILE_ENV: string;
export const FILE_STARTED: string;
export const SQLITE_OWN_MODULES: string[];
export interface SqlPathRecord {
  engine: "sqlite" | "postgres";
  file: string;
  path: string;
}
export function callSite(
  frames: { file: string; name: string | null; line: number | null }[],
): string | undefined;
export function shapeOf(node: unknown): string;
export function startRecording(): Promise<void>;
export function recordStarted(file: string): void;
export function readRecords(dir: string): { started: Set<string>; paths: SqlPathRecord[] };
export function uncovered(paths: SqlPathRecord[]): Map<string, Set<string>>;
