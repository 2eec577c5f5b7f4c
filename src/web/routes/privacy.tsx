/**
 * The privacy notice, rendered by the server from the database like the
 * Insight archive: the browser never asks for its data, it loads the page
 * (features/insight/load-from-server.ts), so its text adds nothing to the
 * other pages.
 */
import { type LoaderFunctionArgs, type MetaFunction, useLoaderData } from "react-router";
import { PRIVACY_PATH } from "../../shared/routes.ts";
import { loadFromServer } from "../features/insight/load-from-server.ts";
import { PrivacyNoticePage } from "../features/privacy/PrivacyNoticePage.tsx";
import { routeMeta } from "../lib/seo.ts";

export async function loader({ context }: LoaderFunctionArgs) {
  return { notice: await context.content.privacyNotice() };
}

export const clientLoader = loadFromServer;

export const meta: MetaFunction = ({ matches }) => routeMeta(PRIVACY_PATH, matches);

export default function PrivacyRoute() {
  const { notice } = useLoaderData<typeof loader>();
  return <PrivacyNoticePage notice={notice} />;
}
