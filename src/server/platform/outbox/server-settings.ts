/**
 * The outbox's settings slice: the mail server, the envelope sender and the
 * DKIM key, how the sender retries, how fast it goes to each receiving
 * domain, and how long a sent message keeps its body.
 */
import { resolve } from "node:path";
import { z } from "zod";
import { address, path, url } from "../setting-kinds.ts";

/** A domain as a rate is given for: no space, @ or =, and a dot with something on each side. */
function isDomainName(domain: string): boolean {
  const dot = domain.indexOf(".", 1);
  return dot !== -1 && dot < domain.length - 1 && !/[\s@=]/.test(domain);
}

export const outboxSettings = z
  .object({
    SMTP_URL: url()
      .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
      .optional()
      .meta({
        description:
          "`smtp://user:pass@host:587` or `smtps://…:465`; unset writes mail to `MAILBOX_DIR`.",
        comment:
          "smtp://user:pass@host:587 or smtps://user:pass@host:465. Unset: messages are written as .eml files to MAILBOX_DIR and the log says where.",
      }),
    MAILBOX_DIR: path("data/mail").meta({
      description: "Without SMTP: one `.eml` file per message, logged with its path.",
    }),
    // Each message's envelope sender is this address with a signed token
    // after a "+" (platform/outbox/bounce-address.ts).
    BOUNCE_ADDRESS: address.optional().meta({
      description:
        "Where reports about sent mail come back, e.g. `bounces@mail.firm.example`: each message's envelope sender becomes `bounces+<token>@mail.firm.example`, naming that message (ADR 031). Its domain needs an MX that accepts any `bounces+…` address. Unset, the envelope sender is the From address.",
      comment: "bounces@mail.your-domain: each message's envelope sender becomes bounces+<token>@…",
    }),
    DKIM_DOMAIN: z.string().min(3).optional().meta({
      description:
        "With the next two, every message is DKIM-signed for this domain (see [Bounces, complaints and the firm's domain](mail.md#bounces-complaints-and-the-firms-domain)).",
      comment:
        "Every message is signed with this DKIM key when all three are set; the public half is published at <selector>._domainkey.<domain>.",
    }),
    DKIM_SELECTOR: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]*$/i, "may hold only letters, digits and . _ -")
      .optional()
      .meta({
        description:
          "The selector the public key is published under: `<selector>._domainkey.<domain>`.",
      }),
    DKIM_PRIVATE_KEY_FILE: z
      .string()
      .min(1)
      .transform((value) => resolve(value))
      .optional()
      .meta({
        description:
          "The PEM private key; a start with a key it cannot read stops, naming the file.",
      }),
    OUTBOX_POLL_MS: z.coerce.number().int().min(10).default(5000).meta({
      description: "How often the sender looks for due mail (it also wakes on every new message).",
      comment:
        "Outbox sender: poll interval, attempts, back-off (base doubles, capped), claim lease.",
    }),
    OUTBOX_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(10).meta({
      description: "Attempts before a message is marked failed (the last error is kept).",
    }),
    OUTBOX_RETRY_BASE_MS: z.coerce.number().int().min(1).default(30_000).meta({
      description: "Back-off between a message's attempts: this base, doubling per attempt …",
    }),
    OUTBOX_RETRY_MAX_MS: z.coerce
      .number()
      .int()
      .min(1)
      .default(3_600_000)
      .meta({ description: "… capped at this." }),
    OUTBOX_LEASE_MS: z.coerce.number().int().min(1000).default(60_000).meta({
      description: "How long a sender's claim on a message holds (longer than the SMTP time-outs).",
    }),
    // A mailbox provider throttles or blocks a sender that comes faster than
    // it likes, so bulk copies to one receiving domain start at most this
    // often, across every instance.
    DOMAIN_RATE_PER_SECOND: z.coerce.number().positive().max(10_000).optional().meta({
      description:
        "Copies a second to any one receiving domain (gmail.com, outlook.com, …); unset, a domain may take the issue's whole rate, which stays the ceiling (ADR 037).",
      comment:
        "Pacing per receiving domain: a default rate (unset: the issue's rate), named domains' own rates, and the back-off after a 4xx (doubling from base to max).",
    }),
    DOMAIN_RATES: z
      .string()
      .default("")
      .transform((value, context) => {
        const rates: Record<string, number> = {};
        for (const entry of value.split(",").map((part) => part.trim())) {
          if (entry === "") continue;
          const [domain = "", rate = ""] = entry.split("=").map((part) => part.trim());
          if (!isDomainName(domain) || !(Number(rate) > 0)) {
            context.addIssue({
              code: "custom",
              message: `"${entry}" must be a domain and its copies a second, as in gmail.com=20`,
            });
            return z.NEVER;
          }
          rates[domain.toLowerCase()] = Number(rate);
        }
        return rates;
      })
      .meta({
        description: "Named domains' own rates, e.g. `gmail.com=20,outlook.com=10`.",
      }),
    // A delivered copy starts the back-off over.
    DOMAIN_BACKOFF_BASE_MS: z.coerce.number().int().min(1).default(60_000).meta({
      description:
        "After a 421, 450, 451 or 452 from a domain, its copies wait this long, doubling with each further one …",
    }),
    DOMAIN_BACKOFF_MAX_MS: z.coerce.number().int().min(1).default(3_600_000).meta({
      description:
        "… up to this; other domains' copies go on meanwhile. A copy deferred past `OUTBOX_MAX_ATTEMPTS` fails and counts as a soft bounce.",
    }),
    // Its row stays for the send's figures and a late bounce's trace; mail
    // waiting or failed stays whole (ADR 048).
    OUTBOX_SENT_RETENTION_DAYS: z.coerce.number().int().min(1).default(30).meta({
      description:
        "How long a sent message keeps its subject, bodies and headers in the outbox; then only its Message-ID, sender and recipient stay (mail waiting or failed is kept whole).",
      comment: "Days the daily purge leaves a sent message its subject and bodies (its row stays).",
    }),
  })
  .superRefine((env, context) => {
    const dkim = ["DKIM_DOMAIN", "DKIM_SELECTOR", "DKIM_PRIVATE_KEY_FILE"] as const;
    const dkimSet = dkim.filter((name) => env[name] !== undefined);
    if (dkimSet.length > 0 && dkimSet.length < dkim.length) {
      const missing = dkim.find((name) => env[name] === undefined) ?? "DKIM_DOMAIN";
      context.addIssue({
        code: "custom",
        path: [missing],
        message: `must be set with ${dkimSet.join(" and ")}: a DKIM signature needs the domain, the selector and the private key`,
      });
    }
  })
  .meta({
    title: "Outgoing mail",
    description:
      "The outbox: where mail leaves (an SMTP server, else files), the envelope sender reports come back to, the DKIM key, how the sender retries, and how fast it goes to each receiving domain.",
  });
