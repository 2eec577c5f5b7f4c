/** The three fixed case studies of spec §2, edited in content/case-studies.json. */
import caseStudies from "../../../../content/case-studies.json" with { type: "json" };

export type CaseStudy = (typeof caseStudies)[number];

export const CASE_STUDIES: readonly CaseStudy[] = caseStudies;

/** "Finance: AR Forecast" → "Finance". */
export function sectorOf(study: CaseStudy): string {
  return study.title.split(":")[0]?.trim() || study.title;
}
