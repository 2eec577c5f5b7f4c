/**
 * Who an issue goes to, as the send panel's choice holds it: every active
 * subscriber, or those with any or all of the tags and topics ticked.
 * "Send now" and "Schedule" both send the segment this makes.
 */
import { z } from "zod";
import { NO_TAG_CHOSEN, SEGMENT_MATCHES, type Segment } from "../../../shared/admin/newsletter.ts";

export const recipientsSchema = z
  .object({
    to: z.enum(["everyone", "segment"]),
    match: z.enum(SEGMENT_MATCHES),
    tags: z.array(z.string()),
    /** The ticked topics' ids, as their boxes' values give them. */
    topics: z.array(z.string()),
  })
  .refine((choice) => choice.to === "everyone" || choice.tags.length + choice.topics.length > 0, {
    message: NO_TAG_CHOSEN,
    path: ["tags"],
  });
export type RecipientsValues = z.infer<typeof recipientsSchema>;

export const EVERYONE: RecipientsValues = { to: "everyone", match: "any", tags: [], topics: [] };

/**
 * The segment chosen: undefined for everyone, null while a segment has
 * neither tag nor topic yet (nothing to count or send).
 */
export function segmentOfChoice({
  to,
  match,
  tags,
  topics,
}: RecipientsValues): Segment | undefined | null {
  if (to === "everyone") return undefined;
  if (tags.length + topics.length === 0) return null;
  return { match, tags, topics: topics.map(Number) };
}

/** What the panel says while a segment has neither tag nor topic ticked. */
export const NOTHING_TICKED = "Tick the tags or topics it goes to.";

/** "3 active subscribers", as the panel and the confirmation say it. */
export const activeSubscribers = (count: number) =>
  `${count.toLocaleString("en-GB")} active ${count === 1 ? "subscriber" : "subscribers"}`;
