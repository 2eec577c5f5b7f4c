/**
 * The content as a draft's preview shows it: the published lists, read
 * afresh, with the draft's record in place of its published version, and
 * everything else as the site serves it. Nothing here is kept: a preview
 * is rendered for one request and dropped.
 */
import type { Kysely } from "kysely";
import { LIST_SPECS } from "../../../shared/admin/content.ts";
import { highlightsOf } from "../../../shared/highlights.ts";
import type { ContentReader } from "../../../shared/page-context.ts";
import { caseStudyPath } from "../../../shared/routes.ts";
import type { Database } from "../../platform/db/schema.ts";
import { columnsOf } from "./admin-queries.ts";
import type { StoredDraft } from "./draft-rows.ts";
import { listCaseStudies, listItems, listTeam, type StandIn } from "./queries.ts";

/**
 * `content` with some of its reads answered otherwise, for one preview: every
 * read the overrides leave out is the published content's own.
 */
export function readerWith(
  content: ContentReader,
  overrides: Partial<ContentReader>,
): ContentReader {
  return {
    team: () => content.team(),
    items: (category) => content.items(category),
    caseStudies: () => content.caseStudies(),
    highlights: () => content.highlights(),
    facts: () => content.facts(),
    privacyNotice: () => content.privacyNotice(),
    topics: () => content.topics(),
    insightIssues: () => content.insightIssues(),
    insightIssue: (slug) => content.insightIssue(slug),
    ...overrides,
  };
}

export function draftReader(
  published: ContentReader,
  db: Kysely<Database>,
  draft: StoredDraft,
): ContentReader {
  const spec = LIST_SPECS[draft.list];
  const standIn: StandIn = { id: draft.recordId, columns: columnsOf(spec, draft.fields) };
  const caseStudies = () =>
    spec.entity === "case-study" ? listCaseStudies(db, standIn) : published.caseStudies();
  return readerWith(published, {
    team: () => (spec.entity === "team" ? listTeam(db, standIn) : published.team()),
    items: (category) =>
      category === spec.category ? listItems(db, category, standIn) : published.items(category),
    caseStudies,
    // Home puts case studies forward: made again from the draft's list.
    highlights: async () => highlightsOf(await caseStudies(), await published.insightIssues()),
  });
}

/** The page that shows the draft's record: its list's page, or the case study's own. */
export function draftPagePath(draft: StoredDraft): string {
  const spec = LIST_SPECS[draft.list];
  const slug = draft.fields.slug;
  return spec.entity === "case-study" && slug ? caseStudyPath(slug) : spec.publicPath;
}
