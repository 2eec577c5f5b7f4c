/**
 * Spec §2/§4: the Case Studies section of Who We Serve. Three fixed cards from
 * content/case-studies.json; each See More opens that card's own modal.
 */

import { useState } from "react";
import { ANCHORS } from "../../../shared/routes.ts";
import { ArrowIcon } from "../../components/ArrowIcon.tsx";
import { CaseStudyModal } from "./CaseStudyModal.tsx";
import { CASE_STUDIES, type CaseStudy, sectorOf } from "./data.ts";

export function CaseStudies() {
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
            Three recent engagements, each run by a business lead and a technical expert working
            side by side, and each measured by what changed for the client.
          </p>
        </header>
        <ul className="case-studies__grid">
          {CASE_STUDIES.map((study, index) => (
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
  const [open, setOpen] = useState(false);
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
      <button
        type="button"
        className="button button--ghost case-card__more"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        See More<span className="visually-hidden"> about {study.title}</span>
        <ArrowIcon />
      </button>
      <CaseStudyModal study={study} open={open} onClose={() => setOpen(false)} />
    </article>
  );
}
