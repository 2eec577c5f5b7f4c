/** Who We Serve (spec §2): case studies, then the industries and tech needs we work in. */

import { SITE } from "../../shared/site.ts";
import { CaseStudies } from "../features/case-studies/CaseStudies.tsx";
import { IndustriesAndTechNeeds } from "../features/industries/IndustriesAndTechNeeds.tsx";
import { pageMeta } from "../lib/pageTitle.ts";

export function meta() {
  return pageMeta(
    "Who We Serve",
    `Case studies in finance, manufacturing and e-commerce, and the industries and technology needs ${SITE.firmName} serves.`,
  );
}

export default function WeservePage() {
  return (
    <>
      <section className="page-hero section--night" aria-labelledby="weserve-title">
        <div className="container">
          <p className="eyebrow">Clients &amp; results</p>
          <h1 id="weserve-title">Who We Serve</h1>
          <p className="lede">
            We help companies in finance, manufacturing, e-commerce, automotive and construction
            turn their own data and systems into measurable business results.
          </p>
        </div>
      </section>
      <CaseStudies />
      <IndustriesAndTechNeeds />
    </>
  );
}
