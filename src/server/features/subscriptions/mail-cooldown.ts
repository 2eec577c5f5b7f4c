/**
 * A cooldown per address on the mail anyone can make the site send to an
 * address by typing it into the subscribe form: the welcome and, with
 * double opt-in, the confirmation link. Each request may come from another
 * client, so the per-client rate limit cannot stop a stranger; this stops
 * the mail, whoever asks. One upsert on the table's primary key decides: it
 * takes the address's turn only when its last mail of the kind is older
 * than the window, so of simultaneous requests exactly one wins.
 */
import { createHmac } from "node:crypto";
import type { Kysely } from "kysely";
import { normalizeEmail } from "../../../shared/subscription.ts";
import type { Database } from "../../platform/db/schema.ts";

const MINUTE_MS = 60 * 1000;

export interface MailCooldown {
  /** SUBSCRIBE_MAIL_COOLDOWN_MINUTES; 0 lets every mail go. */
  minutes: number;
  /** The app's clock (epoch ms): tests move it instead of waiting. */
  now: () => number;
}

/**
 * The address as the table keeps it: an HMAC under a key derived from the
 * server's secret for this one purpose, so the table holds no address and
 * cannot be matched against a list of them without the secret.
 */
function addressKey(secret: string, email: string): string {
  const key = createHmac("sha256", secret).update("mail-cooldowns").digest();
  return createHmac("sha256", key).update(normalizeEmail(email)).digest("hex");
}

/**
 * Takes the address's turn for a mail of `kind`, in the caller's
 * transaction, so it is given back if the mail is not queued after all;
 * false when one went to the address within the cooldown.
 */
export async function takeMailTurn(
  db: Kysely<Database>,
  { minutes, now }: MailCooldown,
  secret: string,
  email: string,
  kind: string,
): Promise<boolean> {
  const at = now();
  const mailedAt = new Date(at).toISOString();
  const turnEndedBy = new Date(at - minutes * MINUTE_MS).toISOString();
  const taken = await db
    .insertInto("mail_cooldowns")
    .values({ address_key: addressKey(secret, email), kind, mailed_at: mailedAt })
    .onConflict((conflict) =>
      conflict
        .columns(["address_key", "kind"])
        .doUpdateSet({ mailed_at: mailedAt })
        .where("mail_cooldowns.mailed_at", "<=", turnEndedBy),
    )
    .returning("kind")
    .executeTakeFirst();
  return taken !== undefined;
}

/**
 * Forgets the turns whose window has passed: such a row no longer holds
 * anything back, and the table should not keep a trace of every address
 * ever typed into the form. One DELETE, so instances purging at once do not
 * clash; the number of turns forgotten.
 */
export async function forgetPastTurns(
  db: Kysely<Database>,
  { minutes, now }: MailCooldown,
): Promise<number> {
  const turnEndedBy = new Date(now() - minutes * MINUTE_MS).toISOString();
  const result = await db
    .deleteFrom("mail_cooldowns")
    .where("mailed_at", "<=", turnEndedBy)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
