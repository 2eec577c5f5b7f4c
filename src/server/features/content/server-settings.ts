/** The content's settings slice: how often scheduled drafts are looked for, and the largest image uploaded. */
import { z } from "zod";

export const contentSettings = z
  .object({
    // A draft scheduled here wakes this instance's publisher at its time;
    // this bounds how late an instance that did not schedule it, or a
    // restarted one, finds it.
    SCHEDULED_PUBLISH_POLL_MS: z.coerce.number().int().min(10).default(60_000).meta({
      description:
        "The longest an instance waits before looking for scheduled content drafts that are due (it also wakes at the time of each one scheduled on it); see [Drafts and scheduled publishing](content.md#drafts-and-scheduled-publishing).",
    }),
    UPLOAD_MAX_MB: z.coerce
      .number()
      .int()
      .min(1)
      .max(100)
      .default(15)
      .meta({ description: "The largest image the console accepts." }),
  })
  .meta({
    title: "Content",
    description: "Scheduled drafts, and the images uploaded in the console.",
  });

export type ContentSettings = z.output<typeof contentSettings>;
