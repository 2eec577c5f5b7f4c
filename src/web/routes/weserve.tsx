/**
 * Who We Serve: case studies, then the industries and tech needs we
 * work in, from the server's render (loader) or, after a move in the
 * browser, from the API (clientLoader, api/content-lists.ts).
 *
 * A case study's address (routes/case-study.tsx, a child of this route) shows
 * the study in a modal over this page when See More led there, and as a page
 * of its own otherwise (a shared link, a crawler, a reader without JavaScript).
 */
import {
  type LoaderFunctionArgs,
  type MetaFunction,
  Outlet,
  useLoaderData,
  useLocation,
  useMatch,
} from "react-router";
import { CASE_STUDY_ROUTE, ROUTES } from "../../shared/routes.ts";
import { fetchCaseStudies, fetchItems } from "../api/client.ts";
import { fetchLists, servedLists } from "../api/content-lists.ts";
import { PageHero } from "../components/PageHero.tsx";
import { CaseStudies, isOverList } from "../features/case-studies/CaseStudies.tsx";
import { IndustriesAndTechNeeds } from "../features/industries/IndustriesAndTechNeeds.tsx";
import { useListFailureAlert } from "../hooks/use-list-failure-alert.ts";
import { routeMeta } from "../lib/seo.ts";

export async function loader({ context }: LoaderFunctionArgs) {
  const [caseStudies, industries, techNeeds] = await Promise.all([
    context.content.caseStudies(),
    context.content.items("industries"),
    context.content.items("techneeds"),
  ]);
  return servedLists({ caseStudies, industries, techNeeds });
}

export function clientLoader() {
  return fetchLists({
    caseStudies: fetchCaseStudies,
    industries: () => fetchItems("industries"),
    techNeeds: () => fetchItems("techneeds"),
  });
}

export const meta: MetaFunction = ({ matches }) => routeMeta(ROUTES.weServe, matches);

export default function WeservePage() {
  const loaded = useLoaderData<typeof loader>();
  useListFailureAlert(loaded);
  const location = useLocation();
  const studyAsPage = useMatch(CASE_STUDY_ROUTE) !== null && !isOverList(location.state);
  if (studyAsPage) return <Outlet />;

  const { caseStudies, industries, techNeeds } = loaded.lists;
  return (
    <>
      <PageHero id="weserve-title" eyebrow="Clients & results" title="Who We Serve">
        We help companies in finance, manufacturing, e-commerce, automotive and construction turn
        their own data and systems into measurable business results.
      </PageHero>
      <CaseStudies studies={caseStudies} />
      <IndustriesAndTechNeeds industries={industries} techNeeds={techNeeds} />
      <Outlet />
    </>
  );
}
