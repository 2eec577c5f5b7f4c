/**
 * A lead's source (shared/lead-source.ts) in and out of its columns on
 * `inquiries` and `subscriptions` (LeadSourceColumns). The channel is always
 * derived here from the parts, never taken from a post.
 */
import type { LeadSourceDetail } from "../../../shared/admin/lead-source.ts";
import { CHANNELS, type Channel, channelOf, type LeadSource } from "../../../shared/lead-source.ts";
import type { LeadSourceColumns } from "./schema.ts";

type Columns = { [K in keyof LeadSourceColumns]: string | null };

export interface SourceKnowledge {
  /**
   * Whether the visit's referrer could be known. A form posted without
   * JavaScript only tells the page it was on: with no UTM tag, its channel is
   * unknown (null) rather than "direct".
   */
  referrerKnown?: boolean;
}

/** The columns to write for `source`; every one null when there is none. */
export function leadSourceColumns(
  source: LeadSource | undefined,
  { referrerKnown = true }: SourceKnowledge = {},
): Columns {
  if (!source) {
    return {
      source_entry_page: null,
      source_referrer: null,
      source_channel: null,
      source_utm_source: null,
      source_utm_medium: null,
      source_utm_campaign: null,
    };
  }
  const channel = channelOf(source);
  return {
    source_entry_page: source.entryPage ?? null,
    source_referrer: source.referrer ?? null,
    source_channel: channel === "direct" && !referrerKnown ? null : channel,
    source_utm_source: source.utmSource ?? null,
    source_utm_medium: source.utmMedium ?? null,
    source_utm_campaign: source.utmCampaign ?? null,
  };
}

/** The source as the console shows it; null when the row has none. */
export function leadSourceOf(row: Partial<Columns>): LeadSourceDetail {
  const detail: NonNullable<LeadSourceDetail> = {};
  if (row.source_entry_page) detail.entryPage = row.source_entry_page;
  if (row.source_referrer) detail.referrer = row.source_referrer;
  if (row.source_utm_source) detail.utmSource = row.source_utm_source;
  if (row.source_utm_medium) detail.utmMedium = row.source_utm_medium;
  if (row.source_utm_campaign) detail.utmCampaign = row.source_utm_campaign;
  const channel = row.source_channel;
  if (channel && (CHANNELS as readonly string[]).includes(channel)) {
    detail.channel = channel as Channel;
  }
  return Object.keys(detail).length > 0 ? detail : null;
}

/** The export's source columns of a row, empty where unknown. */
export function leadSourceCells(row: Partial<Columns>): Record<keyof Columns, string> {
  return {
    source_entry_page: row.source_entry_page ?? "",
    source_referrer: row.source_referrer ?? "",
    source_channel: row.source_channel ?? "",
    source_utm_source: row.source_utm_source ?? "",
    source_utm_medium: row.source_utm_medium ?? "",
    source_utm_campaign: row.source_utm_campaign ?? "",
  };
}

/** The column names, to select them. */
export const LEAD_SOURCE_COLUMNS = [
  "source_entry_page",
  "source_referrer",
  "source_channel",
  "source_utm_source",
  "source_utm_medium",
  "source_utm_campaign",
] as const;
