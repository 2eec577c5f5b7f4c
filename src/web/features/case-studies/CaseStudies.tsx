/**
 * The Case Studies section of Who We Serve. Each card's See More
 * goes to the case study's own address; over this list, that address shows
 * the study in a modal (routes/case-study.tsx), and Back or Close returns here.
 */
import { Link } from "react-router";
import { type CaseStudy, sectorOf } from "../../../shared/content.ts";
import { ANCHORS, caseStudyPath } from "../../../shared/routes.ts";
import { ArrowIcon } from "../../components/ArrowIcon.tsx";
import { KEEP_SCROLL } from "../../lib/keep-scroll.ts";

/** The navigation state that asks for a case study over the list, which stays where it was. */
export const OVER_LIST = { overList: true, ...KEEP_SCROLL } as const;

export function isOverList(state: unknown): boolean {
  return typeof state === "object" && state !== null && "overList" in state;
}

export function CaseStudies({ studies }: { studies: CaseStudy[] }) {
  return (
    <section
      id={ANCHORS.caseStudies}
      className="section case-studies"
      aria-labelledby="case-studies-heading"
    >
      <div className="container">
        <header className="case-studies__header">
          <div>
            <p className="eyebrow">Selected work</p>
            <h2 id="case-studies-heading">Case Studies</h2>
          </div>
          <p className="case-studies__intro">
            Recent engagements, each run by a business lead and a technical expert working side by
            side, and each measured by what changed for the client.
          </p>
        </header>
        <ul className="case-studies__grid">
          {studies.map((study, index) => (
            <li key={study.slug}>
              <CaseStudyCard study={study} index={index} />
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function CaseStudyCard({ study, index }: { study: CaseStudy; index: number }) {
  const titleId = `case-study-${study.slug}`;

  return (
    <article className="case-card" aria-labelledby={titleId}>
      <p className="case-card__meta">
        <span className="case-card__number" aria-hidden="true">
          {String(index + 1).padStart(2, "0")}
        </span>
        {sectorOf(study)}
      </p>
      <h3 id={titleId} className="case-card__title">
        {study.title}
      </h3>
      <p className="case-card__summary">{study.summary}</p>
      <Link
        to={caseStudyPath(study.slug)}
        state={OVER_LIST}
        className="button button--ghost case-card__more"
      >
        See More<span className="visually-hidden"> about {study.title}</span>
        <ArrowIcon />
      </Link>
    </article>
  );
}
