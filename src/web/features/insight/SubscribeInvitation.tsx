/**
 * The archive's invitation to subscribe: it leads to the footer's subscribe
 * form, which every page has, rather than showing a second form.
 */
import { INSIGHT_FEED_PATH } from "../../../shared/routes.ts";
import { NEWSLETTER_ANCHOR } from "./anchors.ts";

export function SubscribeInvitation({ id, title }: { id: string; title: string }) {
  return (
    <aside className="insight-invitation" aria-labelledby={id}>
      <h2 id={id} className="insight-invitation__title">
        {title}
      </h2>
      <p>
        One e-mail a month with what we learn in the work: data, cloud and machine learning, in
        plain words. Leave with one click whenever you like.
      </p>
      <a className="button button--accent" href={`#${NEWSLETTER_ANCHOR}`}>
        Subscribe
      </a>
      <p className="insight-invitation__feed">
        Or follow Insight in a feed reader: <a href={INSIGHT_FEED_PATH}>Atom feed</a>
      </p>
    </aside>
  );
}
