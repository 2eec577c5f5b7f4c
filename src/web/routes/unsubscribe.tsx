/**
 * Where the link in every Insight e-mail leads: it shows whose subscription
 * the link is for and asks to confirm; a bad or used link gets a clear answer.
 */
import { useEffect, useState } from "react";
import { Link, type MetaFunction, useSearchParams } from "react-router";
import { ROUTES, UNSUBSCRIBE_PATH } from "../../shared/routes.ts";
import { checkUnsubscribe, confirmUnsubscribe } from "../api/client.ts";
import { Spinner } from "../components/Spinner.tsx";
import { routeMeta } from "../lib/seo.ts";

export const meta: MetaFunction = ({ matches }) => routeMeta(UNSUBSCRIBE_PATH, matches);

type View =
  | { step: "checking" }
  | { step: "confirm"; email: string }
  | { step: "working"; email: string }
  | { step: "done"; email: string }
  | { step: "already"; email: string }
  | { step: "invalid" }
  | { step: "error" };

const HEADINGS: Record<View["step"], string> = {
  checking: "Unsubscribe from Insight",
  confirm: "Unsubscribe from Insight?",
  working: "Unsubscribe from Insight?",
  done: "You are unsubscribed",
  already: "You are already unsubscribed",
  invalid: "This link is not valid",
  error: "Something went wrong",
};

export default function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const [view, setView] = useState<View>({ step: "checking" });

  useEffect(() => {
    if (!token) {
      setView({ step: "invalid" });
      return;
    }
    checkUnsubscribe(token)
      .then(({ status, data }) => {
        if (status === 200 && data?.email) {
          setView({
            step: data.state === "unsubscribed" ? "already" : "confirm",
            email: data.email,
          });
        } else {
          setView({ step: status === 400 || status === 404 ? "invalid" : "error" });
        }
      })
      .catch(() => setView({ step: "error" }));
  }, [token]);

  async function confirm(email: string) {
    setView({ step: "working", email });
    try {
      const { status } = await confirmUnsubscribe(token);
      setView(
        status === 200 ? { step: "done", email } : { step: status === 404 ? "invalid" : "error" },
      );
    } catch {
      setView({ step: "error" });
    }
  }

  return (
    <section className="section section--warm unsubscribe" aria-live="polite">
      <div className="container unsubscribe__card">
        <p className="eyebrow">Insight newsletter</p>
        <h1>{HEADINGS[view.step]}</h1>
        {view.step === "checking" ? <Spinner label="Checking your link" /> : null}
        {view.step === "confirm" || view.step === "working" ? (
          <>
            <p className="lede">
              We will stop sending Insight to <strong>{view.email}</strong>.
            </p>
            <button
              type="button"
              className="button button--accent"
              disabled={view.step === "working"}
              onClick={() => confirm(view.email)}
            >
              {view.step === "working" ? <Spinner label="Unsubscribing" /> : "Unsubscribe"}
            </button>
          </>
        ) : null}
        {view.step === "done" || view.step === "already" ? (
          <p className="lede">
            <strong>{view.email}</strong> will not receive Insight any more. Changed your mind? You
            can subscribe again at the bottom of any page.
          </p>
        ) : null}
        {view.step === "invalid" ? (
          <p className="lede">
            The link may be incomplete or from an older e-mail. Please use the unsubscribe link in
            your most recent Insight e-mail, or write to us and we will take care of it.
          </p>
        ) : null}
        {view.step === "error" ? (
          <p className="lede">We could not reach our server. Please try again in a moment.</p>
        ) : null}
        <p>
          <Link to={ROUTES.home}>Back to the home page</Link>
        </p>
      </div>
    </section>
  );
}
