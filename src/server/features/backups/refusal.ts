import { ConfigError } from "../../platform/config.ts";

/**
 * A backup or restore that cannot go ahead for a reason a person can act
 * on (no database there, an archive damaged or from a newer site, a live
 * database in the way). Its message is one sentence for that person; the
 * CLIs print it alone, without a stack.
 */
export class BackupRefusal extends Error {}

/** What the `backups` table and the owners' mail say of a failed backup. */
export function failureReason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The one line a CLI prints when it fails: a refusal or a bad setting as
 * it is, a mistyped option with the usage, anything else after what failed.
 */
export function cliFailure(error: unknown, usage: string, what: "backup" | "restore"): string {
  if (error instanceof BackupRefusal || error instanceof ConfigError) return error.message;
  if (String((error as { code?: unknown }).code).startsWith("ERR_PARSE_ARGS")) {
    return `${(error as Error).message}\n\n${usage}`;
  }
  return `The ${what} failed: ${failureReason(error)}`;
}
