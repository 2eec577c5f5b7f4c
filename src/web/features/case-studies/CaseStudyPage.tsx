/** A case study as a page of its own: what a shared link, a crawler or a reader without JavaScript gets. */
import { Link } from "react-router";
import { type CaseStudy, sectorOf } from "../../../shared/content.ts";
import { ANCHORS, ROUTES } from "../../../shared/routes.ts";
import { CaseStudyArticle, caseStudyIds } from "./CaseStudyArticle.tsx";

export function CaseStudyPage({ study }: { study: CaseStudy }) {
  return (
    <article className="case-study-page" aria-labelledby={caseStudyIds(study).title}>
      <div className="container case-study-page__inner">
        <nav className="case-study-page__nav" aria-label="Breadcrumb">
          <Link to={`${ROUTES.weServe}#${ANCHORS.caseStudies}`}>Who We Serve · Case studies</Link>
        </nav>
        <p className="case-study__kicker">Case study · {sectorOf(study)}</p>
        <CaseStudyArticle study={study} headingLevel={1} />
      </div>
    </article>
  );
}
