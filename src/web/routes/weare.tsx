/**
 * Who We Are: the leadership carousel and the ethos flip cards,
 * with the team and the ethos from the server's render (loader) or, after a
 * move in the browser, from the API (clientLoader, api/content-lists.ts).
 *
 * The carousel is the page's lazily loaded part: if it fails to
 * load, the error reaches the root's default error screen, so this route
 * deliberately exports no ErrorBoundary.
 */
import { Suspense } from "react";
import { type LoaderFunctionArgs, type MetaFunction, useLoaderData } from "react-router";
import { ANCHORS, ROUTES } from "../../shared/routes.ts";
import { SITE } from "../../shared/site.ts";
import { fetchItems, fetchTeam } from "../api/client.ts";
import { fetchLists, servedLists } from "../api/content-lists.ts";
import { PageHero } from "../components/PageHero.tsx";
import { EthosGrid } from "../features/ethos/EthosCards.tsx";
import { LeadershipPlaceholder } from "../features/leadership/LeadershipPlaceholder.tsx";
import { useListFailureAlert } from "../hooks/use-list-failure-alert.ts";
import { lazyWithTimeout } from "../lib/lazy-with-timeout.ts";
import { routeMeta } from "../lib/seo.ts";

const loadCarousel = () => import("../features/leadership/LeadershipCarousel.tsx");
const LeadershipCarousel = lazyWithTimeout(loadCarousel);

export async function loader({ context }: LoaderFunctionArgs) {
  const [team, ethos] = await Promise.all([context.content.team(), context.content.items("ethos")]);
  return servedLists({ team, ethos });
}

export function clientLoader() {
  return fetchLists({ team: fetchTeam, ethos: () => fetchItems("ethos") });
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  routeMeta(ROUTES.weAre, matches, { people: data?.lists.team });

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
  const loaded = useLoaderData<typeof loader>();
  useListFailureAlert(loaded);
  const { team, ethos } = loaded.lists;

  return (
    <>
      <PageHero id="weare-title" eyebrow={`About ${SITE.shortName}`} title="Who We Are">
        We are business leaders and engineers who work side by side, so the technology we build
        serves the business it is meant for.
      </PageHero>

      <section
        id={ANCHORS.leadership}
        className="section section--warm"
        aria-labelledby="leadership-heading"
      >
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
          <Suspense fallback={<LeadershipPlaceholder members={team} />}>
            <LeadershipCarousel members={team} />
          </Suspense>
        </div>
      </section>

      <section id={ANCHORS.ethos} className="section" aria-labelledby="ethos-heading">
        <div className="container">
          <EthosGrid items={ethos} intro={ethosIntro} />
        </div>
      </section>
    </>
  );
}
