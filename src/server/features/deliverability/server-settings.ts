/**
 * The deliverability's settings slice: where reports about sent mail are
 * read (the bounce mailbox, the providers' webhooks), when soft bounces
 * suppress an address, how long reports are kept, and the DNS servers the
 * Sending health page asks.
 */
import { z } from "zod";
import { url } from "../../platform/setting-kinds.ts";

export const deliverabilitySettings = z
  .object({
    BOUNCE_IMAP_URL: url()
      .regex(
        /^imaps?:\/\/[^/]+@[^/]+/,
        "must be an imap:// or imaps:// URL with a user, e.g. imaps://user:pass@host/INBOX",
      )
      .optional()
      .meta({
        description:
          "The mailbox `BOUNCE_ADDRESS` delivers to, read for bounce and complaint reports: `imaps://user:pass@imap.example.com/INBOX`. A message that is not a report is left unread.",
        comment: "imaps://user:pass@imap.provider.example/INBOX, read every BOUNCE_POLL_MS.",
      }),
    BOUNCE_POLL_MS: z.coerce
      .number()
      .int()
      .min(100)
      .default(60_000)
      .meta({ description: "How often that mailbox is read." }),
    SOFT_BOUNCE_LIMIT: z.coerce.number().int().min(1).max(100).default(3).meta({
      description:
        "Soft bounces (a full mailbox, a server away) that put an address on the suppression list …",
    }),
    SOFT_BOUNCE_DAYS: z.coerce.number().int().min(1).max(365).default(15).meta({
      description:
        "… when they arrive within this many days. A hard bounce or a complaint suppresses at once.",
    }),
    // Reports name an address and quote the receiving server.
    REPORT_RETENTION_DAYS: z.coerce.number().int().min(30).default(365).meta({
      description:
        "How long bounce and complaint reports are kept (the one behind a suppression stays while the address is suppressed).",
    }),
    // A provider whose key is unset has no route (ADR 034).
    MAILGUN_WEBHOOK_SIGNING_KEY: z.string().min(1).optional().meta({
      description:
        'Mailgun\'s "HTTP webhook signing key": takes its bounce and complaint events at `/api/v1/deliverability/webhooks/mailgun`.',
    }),
    SENDGRID_WEBHOOK_PUBLIC_KEY: z
      .string()
      .regex(
        /^[A-Za-z0-9+/]+={0,2}$/,
        "must be the base64 verification key SendGrid shows for its Signed Event Webhook",
      )
      .optional()
      .meta({
        description:
          "The public key SendGrid shows for its signed Event Webhook (`/api/v1/deliverability/webhooks/sendgrid`).",
      }),
    RESEND_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, "must be the signing secret Resend shows (whsec_…)")
      .optional()
      .meta({
        description:
          "Resend's webhook signing secret, `whsec_…` (`/api/v1/deliverability/webhooks/resend`).",
      }),
    RATE_LIMIT_WEBHOOK_PER_MINUTE: z.coerce.number().int().min(1).default(1200).meta({
      description:
        "Posts allowed per sending address and minute on each mail provider's webhook (`/api/v1/deliverability/webhooks/*`): providers send one per event from a few addresses, so this is far above the forms' limit.",
    }),
    DNS_SERVERS: z
      .string()
      .transform((value) =>
        value
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .default([])
      .meta({
        description:
          "The DNS servers the console's Sending health page asks about the domain's records (`1.1.1.1,9.9.9.9`, or `ip:port`).",
        shownDefault: "system",
        example: "",
        comment: "The DNS servers the Sending health page asks (unset: the system's).",
      }),
  })
  .meta({
    title: "Mail that comes back, and the firm's domain",
    description:
      "Bounce and complaint reports, from the bounce mailbox or a mail provider's webhook, and what they do to an address; see [Bounces, complaints and the firm's domain](mail.md#bounces-complaints-and-the-firms-domain).",
  });

export type DeliverabilitySettings = z.output<typeof deliverabilitySettings>;
