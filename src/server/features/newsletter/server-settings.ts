/** The newsletter's settings slice: the links' tags and clicks, and the send guard's limits (send-guard.tsx). */
import { z } from "zod";
import { booleanFlag } from "../../platform/setting-kinds.ts";

export const newsletterSettings = z
  .object({
    INSIGHT_LINK_TAGS: booleanFlag.default(true).meta({
      description:
        "An Insight e-mail's links to the site carry `utm_source=insight&utm_medium=email&utm_campaign=<issue slug>`, so the visits and leads an issue brings show it as their source (ADR 052). The same tags for every reader: never a reader's own. Links to other sites are left as written. `false` leaves every link bare.",
      comment:
        "An Insight e-mail's links to the site carry utm_source=insight, utm_medium=email and utm_campaign=<the issue's slug> (the same for every reader); false leaves them bare.",
    }),
    INSIGHT_CLICK_COUNTS: booleanFlag.default(true).meta({
      description:
        "Each web link of an Insight e-mail leads through the site's redirect `/insight/<slug>/link/<n>`, which counts the click by link and day, never who, and leads on to the link's address; the issue's page in the console shows the counts (ADR 083). Every reader's copy has the same links. `false` sends the links as written and counts nothing.",
      comment:
        "Insight e-mails' links lead through the site's redirect, which counts clicks by link and day (never who); false sends them as written.",
    }),
    // Mailbox providers judge a sender by its bounces and complaints.
    SEND_GUARD_WINDOW: z.coerce.number().int().min(10).default(1000).meta({
      description: "The send guard judges a send by its most recent finished copies, this many …",
      comment:
        "The send guard: pause a send past these shares of the last SEND_GUARD_WINDOW copies.",
    }),
    SEND_GUARD_MIN_COPIES: z.coerce
      .number()
      .int()
      .min(1)
      .default(100)
      .meta({ description: "… once at least this many have finished …" }),
    SEND_GUARD_HARD_BOUNCE_PERCENT: z.coerce
      .number()
      .min(0)
      .max(100)
      .default(5)
      .meta({ description: "… and pauses it when hard bounces pass this share …" }),
    SEND_GUARD_COMPLAINT_PERCENT: z.coerce.number().min(0).max(100).default(0.1).meta({
      description:
        "… or spam complaints pass this one, says why on the issue, and mails every owner. Resuming counts afresh.",
    }),
  })
  .meta({
    title: "Insight, the newsletter",
    description:
      "The tags on an issue's links, whether their clicks are counted, and when the send guard pauses a send.",
  });

export type NewsletterSettings = z.output<typeof newsletterSettings>;
