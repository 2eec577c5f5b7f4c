/**
 * Where the link in a confirmation e-mail leads (double opt-in): it asks the
 * visitor to confirm with a button, since opening a link must not confirm
 * (mail scanners open them). The button posts a plain form to this page's
 * own address, with or without JavaScript; the server confirms and renders
 * the page again with the outcome (`src/server/features/pages/form-posts.ts`), which the action
 * reads from the posted fields.
 */
import {
  type ActionFunctionArgs,
  data,
  Link,
  type MetaFunction,
  useActionData,
} from "react-router";
import { CONFIRM_SUBSCRIPTION_PATH, ROUTES } from "../../shared/routes.ts";
import type { ConfirmationAnswer } from "../../shared/schemas.ts";
import { documentTitle, factsFrom, originFrom, pageMeta } from "../lib/seo.ts";

export const meta: MetaFunction = ({ matches }) =>
  pageMeta({
    title: documentTitle("Confirm your subscription"),
    description:
      "Confirm your subscription to Insight, the monthly newsletter: one e-mail a month, and you can leave with one click.",
    path: CONFIRM_SUBSCRIPTION_PATH,
    origin: originFrom(matches),
    facts: factsFrom(matches),
    noindex: true,
  });

type Outcome = ConfirmationAnswer | { state: "refused"; message: string };

const STATUS: Record<ConfirmationAnswer["state"], number> = {
  confirmed: 200,
  invalid: 404,
  expired: 410,
  failed: 500,
};

function isAnswerState(state: unknown): state is ConfirmationAnswer["state"] {
  return typeof state === "string" && Object.hasOwn(STATUS, state);
}

/**
 * The server's outcome, as the posted fields carry it. A post the server
 * refused (too many, unreadable) carries its reason instead, and its status.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const refusal = context.forms?.refusal;
  if (refusal) return data<Outcome>({ state: "refused", message: refusal }, { status: 403 });
  const fields = await request.formData();
  const state = fields.get("state");
  const email = fields.get("email");
  const outcome: ConfirmationAnswer =
    state === "confirmed" && typeof email === "string"
      ? { state, email }
      : { state: isAnswerState(state) && state !== "confirmed" ? state : "failed" };
  return data<Outcome>(outcome, { status: STATUS[outcome.state] });
}

const HEADINGS: Record<Outcome["state"] | "ask", string> = {
  ask: "Confirm your subscription to Insight",
  confirmed: "Your subscription is confirmed",
  invalid: "This link is not valid",
  expired: "This link has expired",
  refused: "Please wait a moment",
  failed: "Something went wrong",
};

function Explanation({ outcome }: { outcome: Outcome | undefined }) {
  if (!outcome) {
    return (
      <>
        <p className="lede">
          Press the button to receive Insight, our monthly newsletter, at the address this link was
          sent to.
        </p>
        <form method="post">
          <button type="submit" className="button button--accent">
            Confirm my subscription
          </button>
        </form>
      </>
    );
  }
  switch (outcome.state) {
    case "confirmed":
      return (
        <p className="lede">
          Thank you. <strong>{outcome.email}</strong> will receive Insight from the next edition on,
          and a welcome e-mail is on its way.
        </p>
      );
    case "invalid":
      return (
        <p className="lede">
          The link may be incomplete, or a newer confirmation e-mail replaced it. Please use the
          link in your most recent confirmation e-mail, or subscribe again with the form at the
          bottom of this page.
        </p>
      );
    case "expired":
      return (
        <p className="lede">
          Confirmation links work for a limited time, and this one has run out. Please subscribe
          again with the form at the bottom of this page, and confirm with the link in the new
          e-mail.
        </p>
      );
    case "refused":
      return <p className="lede">{outcome.message}</p>;
    case "failed":
      return (
        <p className="lede">
          We could not confirm your subscription just now. Please open the link again in a moment.
        </p>
      );
  }
}

export default function ConfirmSubscriptionPage() {
  const outcome = useActionData<typeof action>();
  return (
    <section className="section section--warm subscribe-page">
      <div className="container subscribe-page__card">
        <p className="eyebrow">Insight newsletter</p>
        <h1>{HEADINGS[outcome?.state ?? "ask"]}</h1>
        <Explanation outcome={outcome} />
        <p className="subscribe-page__back">
          <Link to={ROUTES.home}>Back to the home page</Link>
        </p>
      </div>
    </section>
  );
}
