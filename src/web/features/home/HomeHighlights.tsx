/**
 * Home's proof of its claim, from the firm's content (shared/highlights.ts):
 * the case studies' outcome figures, then the latest case study and the
 * latest Insight issue. A part the content has nothing for is left out, and
 * with nothing at all the section is not there.
 */
import { Link } from "react-router";
import type { SiteHighlights } from "../../../shared/highlights.ts";
import { caseStudyPath, insightIssuePath } from "../../../shared/routes.ts";
import { SITE } from "../../../shared/site.ts";
import { IssueDate } from "../insight/IssueDate.tsx";

export function HomeOutcomes({ outcomes }: Pick<SiteHighlights, "outcomes">) {
  if (outcomes.length === 0) return null;
  return (
    <section className="section section--night home-outcomes" aria-labelledby="home-outcomes-title">
      <div className="container">
        <p className="eyebrow">Measured results</p>
        <h2 id="home-outcomes-title" className="home-outcomes__title">
          What the work changed for our clients
        </h2>
        <ul className="home-outcomes__list">
          {outcomes.map((outcome) => (
            <li key={outcome.slug} className="home-outcomes__item">
              <p className="home-outcomes__figure">{outcome.figure}</p>
              <p className="home-outcomes__label">{outcome.label}</p>
              <Link className="home-outcomes__link" to={caseStudyPath(outcome.slug)}>
                {outcome.sector} case study<span aria-hidden="true"> →</span>
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

export function HomeLatest({ latestCaseStudy, latestIssue }: SiteHighlights) {
  if (!latestCaseStudy && !latestIssue) return null;
  return (
    <section className="section home-latest" aria-labelledby="home-latest-title">
      <div className="container">
        <div>
          <h2 id="home-latest-title" className="home-latest__title">
            Latest from {SITE.shortName}
          </h2>
          <p className="lede">New work with our clients, and what we learned from it.</p>
        </div>
        <ul className="home-latest__list">
          {latestCaseStudy ? (
            <li className="home-latest__card">
              <p className="eyebrow">Latest case study</p>
              <h3 className="home-latest__heading">
                <Link to={caseStudyPath(latestCaseStudy.slug)}>{latestCaseStudy.title}</Link>
              </h3>
              <p className="home-latest__summary">{latestCaseStudy.summary}</p>
            </li>
          ) : null}
          {latestIssue ? (
            <li className="home-latest__card">
              <p className="eyebrow">Latest Insight issue</p>
              <h3 className="home-latest__heading">
                {/* The archive's pages come from the server alone (features/insight/load-from-server.ts). */}
                <Link reloadDocument to={insightIssuePath(latestIssue.slug)}>
                  {latestIssue.title}
                </Link>
              </h3>
              <p className="home-latest__summary">{latestIssue.summary}</p>
              <p className="home-latest__date">
                <IssueDate publishedAt={latestIssue.publishedAt} />
              </p>
            </li>
          ) : null}
        </ul>
      </div>
    </section>
  );
}
