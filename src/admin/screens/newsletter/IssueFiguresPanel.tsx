/**
 * What a sent issue brought (ADR 083): what came back about its copies, the
 * unsubscribes put down to it, each link's clicks in the e-mail's order, and
 * the visits its links brought to the site with the inquiries and
 * subscriptions they made. Read again every minute while the screen is in
 * view, since readers keep clicking long after the send.
 */
import type { ReactNode } from "react";
import { Link } from "react-router";
import { AUDIENCE_LABEL, AUDIENCE_SCREEN } from "../../../shared/admin/audience.ts";
import type { IssueDetail } from "../../../shared/admin/newsletter.ts";
import { read } from "../../api/client.ts";
import { useKeptCurrent } from "../../api/use-kept-current.ts";
import { useResource } from "../../api/use-resource.ts";
import { Notice } from "../../components/Notice.tsx";
import { count } from "./progress-summary.ts";

const REFRESH_MS = 60_000;

/**
 * The address a link leads to as a person reads it: without its scheme, and
 * without the UTM tags the issue put on the site's own links (the same on
 * every one of them).
 */
function shownAddress(link: string): string {
  const url = new URL(link);
  for (const name of [...url.searchParams.keys()]) {
    if (name.startsWith("utm_")) url.searchParams.delete(name);
  }
  return `${url.host}${url.pathname}${url.search}`;
}

function Figure({ term, children, note }: { term: string; children: ReactNode; note?: string }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>
        {children}
        {note ? <span className="issue-figures__note"> ({note})</span> : null}
      </dd>
    </div>
  );
}

const share = (part: number, whole: number) =>
  whole === 0
    ? undefined
    : `${((100 * part) / whole).toLocaleString("en-GB", { maximumFractionDigits: 1 })} %`;

export function IssueFiguresPanel({ issue }: { issue: Pick<IssueDetail, "id"> }) {
  const figures = useResource(read("newsletter.figures", { params: { id: issue.id } }));
  useKeptCurrent(figures.reload, REFRESH_MS);
  const data = figures.data;
  const clicks = data ? data.links.reduce((total, link) => total + link.clicks, 0) : 0;
  const delivered = data?.delivery.delivered ?? 0;

  return (
    <section className="panel issue-figures" aria-labelledby="issue-figures-title">
      <h2 id="issue-figures-title">What it brought</h2>
      {figures.error ? <Notice tone="error">{figures.error}</Notice> : null}
      {!data && !figures.error ? (
        <p className="loading" role="status">
          Loading the figures…
        </p>
      ) : null}
      {data ? (
        <>
          <dl className="progress-counts issue-figures__counts">
            <Figure term="Delivered">{count(delivered)}</Figure>
            <Figure
              term="Bounced"
              note={share(data.delivery.hardBounces + data.delivery.softBounces, delivered)}
            >
              {count(data.delivery.hardBounces + data.delivery.softBounces)}
            </Figure>
            <Figure term="Complaints" note={share(data.delivery.complaints, delivered)}>
              {count(data.delivery.complaints)}
            </Figure>
            <Figure term="Unsubscribed" note={share(data.unsubscribed, delivered)}>
              {count(data.unsubscribed)}
            </Figure>
            <Figure term="Link clicks">{data.clicksCounted ? count(clicks) : "—"}</Figure>
            <Figure term="Visits to the site">{count(data.visits)}</Figure>
            <Figure term="Inquiries">{count(data.inquiries)}</Figure>
            <Figure term="Subscriptions">{count(data.subscriptions)}</Figure>
          </dl>

          {data.clicksCounted ? (
            <table className="issue-figures__links">
              <caption>Clicks on each link, in the e-mail's order</caption>
              <thead>
                <tr>
                  <th scope="col">Link</th>
                  <th scope="col" className="num">
                    Clicks
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.links.map((link) => (
                  <tr key={link.position}>
                    <th scope="row">
                      <a href={link.url} target="_blank" rel="noreferrer">
                        {shownAddress(link.url)}
                        <span className="visually-hidden"> (opens in a new tab)</span>
                      </a>
                    </th>
                    <td className="num">{count(link.clicks)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p>No click of this issue was counted: its links went out as written.</p>
          )}

          <p className="issue-figures__how">
            Counted without telling readers apart: a click is a link and a day, never who; no
            picture reports who opened the e-mail. Some mail services check every link of a message
            they receive, and such checks can count as clicks. Visits and leads are those of visits
            that began at one of the issue's links to this site, as{" "}
            <Link to={`/${AUDIENCE_SCREEN}`}>{AUDIENCE_LABEL}</Link> counts them; unsubscribes are
            those made with the e-mail's link while this was the newest issue the reader had.
          </p>
        </>
      ) : null}
    </section>
  );
}
