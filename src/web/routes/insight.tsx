/**
 * The Insight archive: every issue sent, newest first, rendered by
 * the server from the database and kept until the archive changes (ADR 010).
 * The site's API has no archive, so the browser never asks for this page's
 * data: it loads the page (features/insight/load-from-server.ts).
 */
import { type LoaderFunctionArgs, type MetaFunction, useLoaderData } from "react-router";
import { INSIGHT_PATH } from "../../shared/routes.ts";
import { InsightArchive } from "../features/insight/InsightArchive.tsx";
import { loadFromServer } from "../features/insight/load-from-server.ts";
import { routeMeta } from "../lib/seo.ts";

export async function loader({ context }: LoaderFunctionArgs) {
  return { issues: await context.content.insightIssues() };
}

export const clientLoader = loadFromServer;

export const meta: MetaFunction = ({ matches }) => routeMeta(INSIGHT_PATH, matches);

export default function InsightRoute() {
  const { issues } = useLoaderData<typeof loader>();
  return <InsightArchive issues={issues} />;
}
