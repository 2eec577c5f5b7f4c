/**
 * A receiving server that refuses a recipient for good while the outbox
 * sends (a 5xx to RCPT TO) has bounced that message as surely as a report
 * would: it is recorded as a hard bounce of the address.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../platform/db/schema.ts";
import type { OnRefused, OnSoftBounce } from "../../platform/outbox/sender.ts";
import { recordReport, type SoftBouncePolicy } from "./record.ts";
import { enhancedStatusIn } from "./reports.ts";

export function recordRefusals(db: Kysely<Database>, policy: SoftBouncePolicy): OnRefused {
  return async ({ claimed, address, refusal }) => {
    await recordReport(
      db,
      {
        email: address,
        kind: "hard",
        status: enhancedStatusIn(refusal.response) ?? String(refusal.code),
        source: "smtp",
        // One refusal per message: the outbox does not try a refused one again.
        sourceKey: `smtp:${claimed.id}`,
        outboxId: claimed.id,
        messageKind: claimed.kind,
        issueId: claimed.newsletter?.issueId ?? null,
        text: refusal.response,
      },
      policy,
    );
  };
}

/**
 * A copy a receiving server kept deferring (421, 450, 451, 452) until the
 * outbox gave up on it is a soft bounce of the address: soft bounces that
 * recur suppress it (SoftBouncePolicy).
 */
export function recordSoftBounces(db: Kysely<Database>, policy: SoftBouncePolicy): OnSoftBounce {
  return async ({ claimed, address, deferral }) => {
    await recordReport(
      db,
      {
        email: address,
        kind: "soft",
        status: deferral.code === null ? null : String(deferral.code),
        source: "smtp",
        // One per message: it is recorded when the outbox gives up on it.
        sourceKey: `smtp-soft:${claimed.id}`,
        outboxId: claimed.id,
        messageKind: claimed.kind,
        issueId: claimed.newsletter?.issueId ?? null,
        text: deferral.response,
      },
      policy,
    );
  };
}
