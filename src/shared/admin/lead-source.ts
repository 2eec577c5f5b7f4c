/**
 * A lead's source as the console shows it on an inquiry and a subscriber
 * (shared/lead-source.ts): the parts the visit brought and the channel the
 * server derived from them; null when the lead came with none.
 */
import { z } from "zod";
import { CHANNEL_LABELS, CHANNELS, type Channel } from "../lead-source.ts";

export const leadSourceViewSchema = z.object({
  entryPage: z.string().optional(),
  referrer: z.string().optional(),
  utmSource: z.string().optional(),
  utmMedium: z.string().optional(),
  utmCampaign: z.string().optional(),
});

export const leadSourceDetailSchema = leadSourceViewSchema
  .extend({ channel: z.enum(CHANNELS).optional() })
  .nullable();
export type LeadSourceDetail = z.infer<typeof leadSourceDetailSchema>;

/** The CSV exports' columns of the source, after each list's own. */
export const SOURCE_EXPORT_COLUMNS = [
  "source_entry_page",
  "source_referrer",
  "source_channel",
  "source_utm_source",
  "source_utm_medium",
  "source_utm_campaign",
] as const;

export const SOURCE_TEXTS = {
  heading: "Source",
  unknown: "Unknown",
  entryPage: "Entry page",
  referrer: "Referrer",
  channel: "Channel",
  campaign: "Campaign (UTM)",
  none: "None",
} as const;

export function channelLabel(channel: Channel | undefined): string {
  return channel ? CHANNEL_LABELS[channel] : SOURCE_TEXTS.unknown;
}

/** The UTM tags in one line: "spring-offer (linkedin / social)", or what there is of them. */
export function campaignText(source: NonNullable<LeadSourceDetail>): string | null {
  const via = [source.utmSource, source.utmMedium].filter(Boolean).join(" / ");
  if (source.utmCampaign) return via ? `${source.utmCampaign} (${via})` : source.utmCampaign;
  return via || null;
}

/** The source in one line, for a turned-away post: "/weserve · google.com · spring (x / y)". */
export function sourceSummary(source: NonNullable<LeadSourceDetail>): string {
  return [source.entryPage, source.referrer, campaignText(source)].filter(Boolean).join(" · ");
}
