/**
 * The site facts (the mission, the invitations, the contact address, the
 * network link) as the root loader read them from the database (root.tsx):
 * in the server's render and, unchanged, in the browser, so the page
 * hydrates without a mismatch and nothing is fetched for them later.
 */
import { useRouteLoaderData } from "react-router";
import type { PageFacts } from "../../shared/site-facts.ts";

export function useSiteFacts(): PageFacts {
  const root = useRouteLoaderData("root") as { facts?: PageFacts } | undefined;
  if (!root?.facts) throw new Error("useSiteFacts: the root loader's data has no facts");
  return root.facts;
}
