/**
 * What Home and the Who We Serve menu put forward from the firm's content:
 * the outcome figures of the case studies, the case study the menu features,
 * the latest case study and the latest Insight issue. Each is absent when
 * the content has none, so nothing is ever promised empty.
 */
import { type DatedCaseStudy, type Outcome, sectorOf } from "./content.ts";
import type { InsightSummary } from "./insight.ts";

/** Home shows at most this many figures: a row that reads at a glance. */
export const MAX_OUTCOMES = 3;

export interface OutcomeHighlight extends Outcome {
  /** The case study it comes from, and its sector ("Finance"). */
  slug: string;
  sector: string;
}

export interface CaseStudyHighlight {
  slug: string;
  title: string;
  summary: string;
}

export interface SiteHighlights {
  /** The figures of the first case studies, in the firm's order, that have one. */
  outcomes: OutcomeHighlight[];
  /** The first case study in the firm's order: the menu shows it with its figure. */
  featured: (CaseStudyHighlight & { outcome?: Outcome }) | null;
  /** The case study published last. */
  latestCaseStudy: CaseStudyHighlight | null;
  /** The Insight issue sent last. */
  latestIssue: InsightSummary | null;
}

/**
 * `studies` in the firm's order, `issues` newest first (as ContentReader
 * gives them). Of studies published at the same moment (a seeded site's),
 * the latest is the one the firm placed last.
 */
export function highlightsOf(
  studies: readonly DatedCaseStudy[],
  issues: readonly InsightSummary[],
): SiteHighlights {
  const brief = ({ slug, title, summary }: DatedCaseStudy): CaseStudyHighlight => ({
    slug,
    title,
    summary,
  });
  const first = studies[0];
  const latest = studies.reduce<DatedCaseStudy | undefined>(
    (found, study) =>
      !found || (study.datePublished ?? "") >= (found.datePublished ?? "") ? study : found,
    undefined,
  );
  return {
    outcomes: studies
      .flatMap(({ slug, title, outcome }) =>
        outcome ? [{ slug, sector: sectorOf({ title }), ...outcome }] : [],
      )
      .slice(0, MAX_OUTCOMES),
    featured: first
      ? { ...brief(first), ...(first.outcome ? { outcome: first.outcome } : {}) }
      : null,
    latestCaseStudy: latest ? brief(latest) : null,
    latestIssue: issues[0] ?? null,
  };
}
