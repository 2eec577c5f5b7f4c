import { Refusal } from "../../platform/refusal.ts";

/**
 * A backup or restore that cannot go ahead for a reason a person can act
 * on (no database there, an archive damaged or from a newer site, a live
 * database in the way). Its message is one sentence for that person; the
 * CLIs print it alone, without a stack.
 */
export class BackupRefusal extends Refusal {}

/** What the `backups` table and the owners' mail say of a failed backup. */
export function failureReason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
