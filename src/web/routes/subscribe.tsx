/**
 * Subscribe to Insight: where the footer's form posts without JavaScript (with
 * JavaScript it calls the API and shows the dialog instead). The page
 * shows the form, with the topics the firm offers, and after a post the
 * outcome with the dialogs' texts at its top. Not one of the menu's five screens, kept out of the sitemap and out
 * of search results.
 */
import {
  type ActionFunctionArgs,
  data,
  Link,
  type LoaderFunctionArgs,
  type MetaFunction,
  useActionData,
  useLoaderData,
} from "react-router";
import { ROUTES, SUBSCRIBE_PATH } from "../../shared/routes.ts";
import { SubscribeForm } from "../features/newsletter/SubscribeForm.tsx";
import { answerSubscribePost } from "../features/newsletter/subscribe-post.ts";
import { useSiteFacts } from "../hooks/use-site-facts.ts";
import { routeMeta } from "../lib/seo.ts";

export const meta: MetaFunction = ({ matches }) => routeMeta(SUBSCRIBE_PATH, matches);

/** The topics the firm offers, from the site's current content. */
export async function loader({ context }: LoaderFunctionArgs) {
  return { topics: await context.content.topics() };
}

/** The form posted without JavaScript: on the server only, through the load context's forms service. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { result, status } = await answerSubscribePost(request, context.forms);
  return data(result, { status });
}

export default function SubscribePage() {
  const posted = useActionData<typeof action>();
  const { topics } = useLoaderData<typeof loader>();
  const { newsletterInvitation } = useSiteFacts();
  return (
    <section className="section section--warm subscribe-page">
      <div className="container subscribe-page__card">
        <p className="eyebrow">Insight newsletter</p>
        <h1 id="subscribe-title">Subscribe to Insight</h1>
        <p className="lede">{newsletterInvitation}</p>
        <SubscribeForm variant="page" posted={posted} topics={topics} />
        <p className="subscribe-page__back">
          <Link to={ROUTES.home}>Back to the home page</Link>
        </p>
      </div>
    </section>
  );
}
