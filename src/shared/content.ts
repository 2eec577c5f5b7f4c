/** The content lists the site receives from the API. */
import type { z } from "zod";
import type { caseStudySchema, contentItemSchema, teamMemberSchema } from "./schemas.ts";

export type TeamMember = z.infer<typeof teamMemberSchema>;
export type ContentItem = z.infer<typeof contentItemSchema>;
/**
 * An item as the server reads it for the pages: with the line the menu shows
 * under it, when the firm wrote one. The API's answer has no such field.
 */
export type ListedItem = ContentItem & { menuLine?: string };
export type CaseStudy = z.infer<typeof caseStudySchema>;

/** The one result a case study is remembered by: "38%", "more accurate 90-day cash forecast". */
export interface Outcome {
  figure: string;
  label: string;
}

/**
 * A case study as the server reads it for the pages: with when it was first
 * written and last changed (ISO 8601), which date its Article, and its
 * outcome when it has one (Home shows it). The API's answer has neither, so
 * a list fetched in the browser has none.
 */
export type DatedCaseStudy = CaseStudy & {
  datePublished?: string;
  dateModified?: string;
  outcome?: Outcome;
};

/** The three sections of a case study, in the order the page shows them. */
export const CASE_STUDY_SECTIONS = [
  { key: "opportunity", heading: "The Opportunity" },
  { key: "solution", heading: "The Solution" },
  { key: "work", heading: "The Work" },
] as const;

/** "Finance: AR Forecast" → "Finance". */
export function sectorOf(study: Pick<CaseStudy, "title">): string {
  return study.title.split(":")[0]?.trim() || study.title;
}
