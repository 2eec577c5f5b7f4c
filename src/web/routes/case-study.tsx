/**
 * A case study at /weserve/case-studies/<slug>, inside Who We Serve (see
 * routes/weserve.tsx): a modal over the list when See More led here, else a
 * page of its own. The study comes from Who We Serve's loader. An unknown
 * slug shows what every unknown path shows: Home.
 */
import {
  type MetaFunction,
  useLocation,
  useNavigate,
  useParams,
  useRouteLoaderData,
} from "react-router";
import type { DatedCaseStudy } from "../../shared/content.ts";
import { isOverList } from "../features/case-studies/CaseStudies.tsx";
import { CaseStudyModal } from "../features/case-studies/CaseStudyModal.tsx";
import { CaseStudyPage } from "../features/case-studies/CaseStudyPage.tsx";
import { caseStudyMeta, notFoundMeta } from "../lib/seo.ts";
import HomePage from "./home.tsx";
import type { loader as weserveLoader } from "./weserve.tsx";

const WESERVE_ROUTE_ID = "routes/weserve";

type WeserveData = Awaited<ReturnType<typeof weserveLoader>>;

/** Dated when the server read it (its Article's dates); undated when the browser fetched the list. */
function findStudy(
  data: WeserveData | undefined,
  slug: string | undefined,
): DatedCaseStudy | undefined {
  return data?.lists.caseStudies.find((study: DatedCaseStudy) => study.slug === slug);
}

export const meta: MetaFunction = ({ params, matches }) => {
  const weserve = matches.find((match) => match?.id === WESERVE_ROUTE_ID);
  const study = findStudy(weserve?.loaderData as WeserveData | undefined, params.slug);
  return study ? caseStudyMeta(study, matches) : notFoundMeta(matches);
};

export default function CaseStudyRoute() {
  const { slug } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const study = findStudy(useRouteLoaderData<typeof weserveLoader>(WESERVE_ROUTE_ID), slug);

  if (!study) return <HomePage />;
  if (!isOverList(location.state)) return <CaseStudyPage study={study} />;
  // Opened from the list: the entry before this one is the list, where it was left.
  return <CaseStudyModal study={study} onClose={() => navigate(-1)} />;
}
