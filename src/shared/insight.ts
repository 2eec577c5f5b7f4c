/**
 * The Insight archive as the public pages, the feed and the sitemap read it:
 * every issue whose sending began (and was neither cancelled nor withdrawn),
 * newest first.
 */

/** An issue in the archive's list. */
export interface InsightSummary {
  slug: string;
  title: string;
  summary: string;
  /** ISO-8601: when its sending began. */
  publishedAt: string;
  /** ISO-8601: when its page was last corrected after the send, if it was. */
  correctedAt?: string;
}

/** An issue's own page: the list's fields and its body, rendered from Markdown when the send was asked for. */
export interface InsightIssue extends InsightSummary {
  /** Safe HTML (no raw HTML passes the Markdown renderer; links are checked). */
  html: string;
}
