/**
 * Who We Are (spec §2): the leadership carousel and the ethos flip cards.
 * Each section takes its anchor id (#leadership, #ethos) only once its list
 * has settled, so an anchor link waits (and retries) until the content it
 * points at is in place; until then a placeholder of similar height stands in.
 *
 * The carousel is the spec's lazily loaded part (§8, §9): if it fails to
 * load, the error reaches the root's default error screen, so this route
 * deliberately exports no ErrorBoundary.
 */
import { Suspense, useEffect } from "react";
import { ANCHORS } from "../../shared/routes.ts";
import { SITE } from "../../shared/site.ts";
import { fetchItems, fetchTeam } from "../api/client.ts";
import { PageHero } from "../components/PageHero.tsx";
import { EthosGrid, EthosPlaceholder } from "../features/ethos/EthosCards.tsx";
import {
  CarouselLayoutStyle,
  LeadershipPlaceholder,
} from "../features/leadership/LeadershipPlaceholder.tsx";
import { useContentList } from "../hooks/useContentList.ts";
import { lazyWithTimeout } from "../lib/lazyWithTimeout.ts";
import { pageMeta } from "../lib/pageTitle.ts";

const loadCarousel = () => import("../features/leadership/LeadershipCarousel.tsx");
const LeadershipCarousel = lazyWithTimeout(loadCarousel);

const loadEthos = () => fetchItems("ethos");

export function meta() {
  return pageMeta(
    "Who We Are",
    `Meet the leadership of ${SITE.firmName} and the ethos behind how we pair business and technology expertise.`,
  );
}

const ethosIntro = (
  <>
    <p className="eyebrow">What we stand for</p>
    <h2 id="ethos-heading">Our Ethos</h2>
    <p className="lede">
      The commitments that shape every engagement, from the first workshop to the final handover.
    </p>
  </>
);

export default function WeArePage() {
  const team = useContentList(fetchTeam);
  const ethos = useContentList(loadEthos);

  // Fetch the carousel's code while the team list is on its way. A failure is
  // left to the lazy component, which raises it when it renders.
  useEffect(() => {
    loadCarousel().catch(() => {});
  }, []);

  return (
    <>
      <PageHero id="weare-title" eyebrow={`About ${SITE.shortName}`} title="Who We Are">
        We are business leaders and engineers who work side by side, so the technology we build
        serves the business it is meant for.
      </PageHero>

      <section
        id={team.settled ? ANCHORS.leadership : undefined}
        className="section section--warm"
        aria-labelledby="leadership-heading"
      >
        <CarouselLayoutStyle />
        <div className="container">
          <header className="leadership__head">
            <div>
              <p className="eyebrow">The people behind the work</p>
              <h2 id="leadership-heading">Leadership</h2>
            </div>
            <p className="lede">
              Operators and technologists who have run the kind of programs they now advise on, and
              who stay close to every engagement.
            </p>
          </header>
          <Suspense fallback={<LeadershipPlaceholder />}>
            {team.settled ? <LeadershipCarousel members={team.items} /> : <LeadershipPlaceholder />}
          </Suspense>
        </div>
      </section>

      <section
        id={ethos.settled ? ANCHORS.ethos : undefined}
        className="section"
        aria-labelledby="ethos-heading"
      >
        <div className="container">
          {ethos.settled ? (
            <EthosGrid items={ethos.items} intro={ethosIntro} />
          ) : (
            <EthosPlaceholder intro={ethosIntro} cards={4} />
          )}
        </div>
      </section>
    </>
  );
}
