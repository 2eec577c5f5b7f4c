/**
 * Saving the mail settings: the one row is written only on the version the
 * owner loaded, in one conditional statement (an insert that yields to an
 * existing row, or an update of that version), so of two owners saving at
 * once the second is told someone saved first.
 */
import type { Transaction } from "kysely";
import type { MailSettingsValues } from "../../../shared/admin/mail-settings.ts";
import { type Database, nowIso } from "../../platform/db/schema.ts";

/** The new version, or null when the loaded version is no longer the stored one. */
export async function saveMailSettings(
  trx: Transaction<Database>,
  loadedVersion: number,
  values: MailSettingsValues,
): Promise<number | null> {
  const columns = {
    sender_name: values.senderName,
    sender_address: values.senderAddress,
    inquiry_to: values.inquiryTo === null ? null : JSON.stringify(values.inquiryTo),
    newsletter_rate: values.newsletterRate,
    double_opt_in: values.doubleOptIn === null ? null : values.doubleOptIn ? 1 : 0,
    welcome_text: values.welcomeText,
    updated_at: nowIso(),
  };
  const written =
    loadedVersion === 0
      ? await trx
          .insertInto("mail_settings")
          .values({ id: 1, ...columns, version: 1 })
          .onConflict((conflict) => conflict.column("id").doNothing())
          .returning("version")
          .executeTakeFirst()
      : await trx
          .updateTable("mail_settings")
          .set({ ...columns, version: loadedVersion + 1 })
          .where("id", "=", 1)
          .where("version", "=", loadedVersion)
          .returning("version")
          .executeTakeFirst();
  return written?.version ?? null;
}
