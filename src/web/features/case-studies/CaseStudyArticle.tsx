/**
 * One case study's text: title, summary, then The Opportunity, The Solution
 * and The Work, and an invitation to talk. The modal and the case
 * study's own page both show it.
 */
import { Link } from "react-router";
import { CASE_STUDY_SECTIONS, type CaseStudy } from "../../../shared/content.ts";
import { ROUTES } from "../../../shared/routes.ts";

export function caseStudyIds(study: CaseStudy) {
  return { title: `${study.slug}-title`, summary: `${study.slug}-summary` };
}

export function CaseStudyArticle({
  study,
  headingLevel,
}: {
  study: CaseStudy;
  headingLevel: 1 | 2;
}) {
  const ids = caseStudyIds(study);
  const Title = headingLevel === 1 ? "h1" : "h2";
  const Section = headingLevel === 1 ? "h2" : "h3";
  return (
    <>
      <div className="case-study__body">
        <Title id={ids.title} className="case-study__title">
          {study.title}
        </Title>
        <p id={ids.summary} className="case-study__summary">
          {study.summary}
        </p>
        {CASE_STUDY_SECTIONS.map(({ key, heading }) => (
          <section key={key} className="case-study__section">
            <Section>{heading}</Section>
            <div>
              {study[key].map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
            </div>
          </section>
        ))}
      </div>
      <div className="case-study__footer">
        <p>Facing a similar challenge?</p>
        <Link to={ROUTES.contactUs} className="button button--accent">
          Talk to us
        </Link>
      </div>
    </>
  );
}
