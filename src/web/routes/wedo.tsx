/**
 * What We Do: the capabilities, from the server's render (loader)
 * or, after a move in the browser, from the API (clientLoader), and the
 * methodology.
 */
import { type LoaderFunctionArgs, type MetaFunction, useLoaderData } from "react-router";
import { ROUTES } from "../../shared/routes.ts";
import { fetchItems } from "../api/client.ts";
import { fetchLists, servedLists } from "../api/content-lists.ts";
import { BackgroundVideo } from "../components/BackgroundVideo.tsx";
import { Capabilities } from "../features/capabilities/Capabilities.tsx";
import { Methodology } from "../features/methodology/Methodology.tsx";
import { useListFailureAlert } from "../hooks/use-list-failure-alert.ts";
import { routeMeta } from "../lib/seo.ts";

export async function loader({ context }: LoaderFunctionArgs) {
  return servedLists({ capabilities: await context.content.items("capabilities") });
}

export function clientLoader() {
  return fetchLists({ capabilities: () => fetchItems("capabilities") });
}

export const meta: MetaFunction = ({ matches }) => routeMeta(ROUTES.weDo, matches);

export default function WeDoPage() {
  const loaded = useLoaderData<typeof loader>();
  useListFailureAlert(loaded);
  return (
    <>
      <section className="video-hero" aria-labelledby="wedo-title">
        <BackgroundVideo name="wedo" />
        <div className="container video-hero__content">
          <h1 id="wedo-title">What We Do</h1>
          <p className="lede">
            From strategy to shipped systems: we design, build and run the technology that moves
            your business forward.
          </p>
        </div>
      </section>
      <Capabilities items={loaded.lists.capabilities} />
      <Methodology />
    </>
  );
}
