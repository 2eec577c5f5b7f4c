/** Who We Serve (spec §2): case studies, then the industries and tech needs we work in. */

import { SITE } from "../../shared/site.ts";
import { PageHero } from "../components/PageHero.tsx";
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
      <PageHero id="weserve-title" eyebrow="Clients & results" title="Who We Serve">
        We help companies in finance, manufacturing, e-commerce, automotive and construction turn
        their own data and systems into measurable business results.
      </PageHero>
      <CaseStudies />
      <IndustriesAndTechNeeds />
    </>
  );
}
