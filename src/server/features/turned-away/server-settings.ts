/** The turned-away posts' settings slice: how long one is kept for the firm to release. */
import { z } from "zod";

export const turnedAwaySettings = z
  .object({
    TURNED_AWAY_RETENTION_DAYS: z.coerce.number().int().min(1).default(30).meta({
      description:
        "How long a post the forms' traps turned away is kept for the console to release.",
      comment: "Days the daily purge keeps a post the forms' traps turned away.",
    }),
  })
  .meta({
    title: "Turned-away posts",
    description:
      "Posts the forms' traps turned away, kept for the firm to release one a person sent.",
  });

export type TurnedAwaySettings = z.output<typeof turnedAwaySettings>;
