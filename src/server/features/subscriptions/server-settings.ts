/** The subscriptions' settings slice: how long a confirmation link lasts, and how often one address is mailed. */
import { z } from "zod";

export const subscriptionsSettings = z
  .object({
    NEWSLETTER_CONFIRM_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 90)
      .default(72)
      .meta({
        description:
          "How long a confirmation link works (1 to 2160); a subscription still unconfirmed after this is removed.",
        comment:
          "How many hours a confirmation link (and an unconfirmed subscription) lasts, with double opt-in.",
      }),
    // At most an hour, the shortest life of a confirmation link.
    SUBSCRIBE_MAIL_COOLDOWN_MINUTES: z.coerce.number().int().min(0).max(60).default(10).meta({
      description:
        "At most one confirmation and one welcome per address within this time, whoever asks (0 to 60; 0 turns it off): the subscribe form cannot be used to flood a stranger's mailbox.",
      comment: "At most one confirmation and one welcome per address in this many minutes.",
    }),
  })
  .meta({
    title: "Subscriptions",
    description: "Confirming a new subscription, and the mail one address may be sent.",
  });

export type SubscriptionsSettings = z.output<typeof subscriptionsSettings>;
