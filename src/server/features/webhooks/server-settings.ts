/** The webhooks' settings slice: which addresses a delivery may reach, and how deliveries are tried and kept. */
import { z } from "zod";
import { booleanFlag } from "../../platform/setting-kinds.ts";

export const webhooksSettings = z
  .object({
    // An operator's setting, not a console one: a stolen console session
    // cannot aim the server inside the firm's network.
    WEBHOOKS_ALLOW_PRIVATE: booleanFlag.default(false).meta({
      description:
        "`true`: outgoing webhooks may reach loopback, private, link-local and other reserved addresses, and plain http in production — for a tool on the firm's own network ([Webhooks](console.md#webhooks)). An operator's setting on purpose: the console cannot change it.",
      comment:
        "true: webhooks may reach private and loopback addresses, and plain http in production (a tool on the firm's own network).",
    }),
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000).meta({
      description:
        "How long one webhook delivery may take before it counts as failed and is tried again.",
      comment:
        "A delivery's time-out, its attempts and their back-off (base doubles, capped), how often due ones are looked for, and how long the log keeps one (days).",
    }),
    // 14 attempts from 30 s doubling to at most 6 h: about a day and a half.
    WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(14).meta({
      description:
        "Attempts before a webhook delivery is marked failed (about a day and a half with the back-off below).",
    }),
    WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(1).default(30_000).meta({
      description: "Back-off between a delivery's attempts: this base, doubling per attempt …",
    }),
    WEBHOOK_RETRY_MAX_MS: z.coerce
      .number()
      .int()
      .min(1)
      .default(6 * 3_600_000)
      .meta({
        description: "… capped at this; each wait is between half and all of it, at random.",
      }),
    WEBHOOK_POLL_MS: z.coerce.number().int().min(10).default(5000).meta({
      description:
        "The longest an instance waits before looking for webhook deliveries due (the one that queued a delivery starts at once).",
    }),
    // A delivery's row holds its body and the answers.
    WEBHOOK_DELIVERY_RETENTION_DAYS: z.coerce.number().int().min(1).default(30).meta({
      description:
        "How long a delivered or failed webhook delivery stays in the console's log (pending ones stay until they end).",
    }),
  })
  .meta({
    title: "Webhooks",
    description:
      "Outgoing webhooks, which tell the firm's own tools of events; see [Webhooks](console.md#webhooks). Private, loopback and reserved addresses, and plain http in production, are refused unless allowed here.",
  });

export type WebhooksSettings = z.output<typeof webhooksSettings>;
