/**
 * The mail settings' slice: what the console's Mail settings start from. A
 * setting the owners have not saved there is read from these (settings.ts).
 */
import { z } from "zod";
import { NEWSLETTER_RATE_MAX, NEWSLETTER_RATE_MIN } from "../../../shared/admin/mail-settings.ts";
import { SITE } from "../../../shared/site.ts";
import { address, booleanFlag, sender } from "../../platform/setting-kinds.ts";

export const mailDefaultSettings = z
  .object({
    MAIL_FROM: sender.default(`"${SITE.firmName}" <${SITE.contactEmail}>`).meta({
      description:
        'Sender of every e-mail (from `content/site.json`): `"Name" <address>`, `Name <address>` or an address alone. The console\'s Mail settings can override it ([Console settings](console.md#console-settings)).',
      shownDefault: '`"<firm name>" <contact address>`',
      comment:
        'An address setting is one mailbox: "Name" <address>, Name <address> or an address alone. In this file a value that starts with " ends at the next ", so a quoted name goes inside single quotes, as here.',
    }),
    INQUIRY_TO: address.default(SITE.contactEmail).meta({
      description:
        "Where inquiry notifications go (an address; a name given with it is dropped). The console's Mail settings can override it with up to ten addresses.",
      shownDefault: "contact address",
      comment: "Where inquiry notifications go.",
    }),
    NEWSLETTER_RATE_PER_SECOND: z.coerce
      .number()
      .int()
      .min(NEWSLETTER_RATE_MIN)
      .max(NEWSLETTER_RATE_MAX)
      .default(10)
      .meta({
        description:
          "How many Insight copies leave per second (1 to 10,000), across all instances together: set it under your SMTP provider's limit ([Sending Insight](newsletter.md#sending-insight)). The console's Mail settings can override it, within the same bounds.",
        comment:
          "Insight copies sent per second, across all instances (under your SMTP provider's limit).",
      }),
    NEWSLETTER_DOUBLE_OPT_IN: booleanFlag.default(false).meta({
      description:
        "`true`: a new subscriber gets a link to confirm the address instead of the welcome, and receives issues only once confirmed ([Double opt-in](newsletter.md#double-opt-in)). The console's Mail settings can override it.",
      comment:
        "Insight double opt-in: new subscribers confirm their address by e-mail first (for NEWSLETTER_CONFIRM_HOURS).",
    }),
  })
  .meta({
    title: "Mail settings' defaults",
    description:
      "What the console's Mail settings start from: owners may override each there, and a setting saved there wins on every instance.",
  });

export type MailDefaultSettings = z.output<typeof mailDefaultSettings>;
