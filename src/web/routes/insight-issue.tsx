/**
 * An Insight issue at /insight/<slug>, rendered by the server from the
 * database like the archive (routes/insight.tsx). A slug no published issue
 * has shows what every unknown path shows: Home, which the server sends
 * with status 404 (rendered once at UNKNOWN_INSIGHT_ISSUE_PATH, so that it
 * hydrates as this route).
 */
import { type LoaderFunctionArgs, type MetaFunction, useLoaderData } from "react-router";
import { InsightIssuePage } from "../features/insight/InsightIssuePage.tsx";
import { loadFromServer } from "../features/insight/load-from-server.ts";
import { insightIssueMeta, notFoundMeta } from "../lib/seo.ts";
import HomePage from "./home.tsx";

export async function loader({ params, context }: LoaderFunctionArgs) {
  return { issue: await context.content.insightIssue(params.slug ?? "") };
}

export const clientLoader = loadFromServer;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  data?.issue ? insightIssueMeta(data.issue, matches) : notFoundMeta(matches);

export default function InsightIssueRoute() {
  const { issue } = useLoaderData<typeof loader>();
  return issue ? <InsightIssuePage issue={issue} /> : <HomePage />;
}
