/**
 * What the bounce mailbox set aside, on the Sending health page: reports
 * that do not prove they are about a message the site sent to the address
 * they name (unverified), and messages that could not be read. Nothing was
 * done with them; each says why, and each is still in the bounce mailbox.
 * Paged through the URL's query, newest first.
 */
import { useSearchParams } from "react-router";
import { type SetAsideRow, setAsideQuerySchema } from "../../../shared/admin/sending-health.ts";
import { REPORT_KIND_LABELS } from "../../../shared/admin/suppressions.ts";
import { read } from "../../api/client.ts";
import { useResource } from "../../api/use-resource.ts";
import { BreakableAddress } from "../../components/BreakableAddress.tsx";
import { Notice } from "../../components/Notice.tsx";
import { Pager } from "../../components/Pager.tsx";
import { Moment } from "../people/Moment.tsx";

export const SET_ASIDE_TEXTS = {
  heading: "Set aside from the bounce mailbox",
  lead: "A report takes an address off the mailing list only when it carries the token of a message the site sent to that address. These did not, or could not be read: none of them suppressed anyone or counts in the figures above. Each is still in the bounce mailbox.",
  empty:
    "Nothing is set aside: every message in the bounce mailbox was read, and every report was tied to a message the site sent.",
} as const;

function SetAsideItem({ item }: { item: SetAsideRow }) {
  const unverified = item.state === "unverified";
  const what = item.kind ? REPORT_KIND_LABELS[item.kind] : "A message";
  return (
    <li className="set-aside-item">
      <h3>
        <span>
          {unverified ? (
            <>
              {what} naming {item.email ? <BreakableAddress email={item.email} /> : "no address"}
              {item.status ? `, status ${item.status}` : ""}
            </>
          ) : (
            "A message in the bounce mailbox"
          )}
        </span>
        <span className="health-state health-state--warn">
          {unverified ? "Unverified" : "Could not be read"}
        </span>
      </h3>
      <p className="health-note">
        Received <Moment iso={item.receivedAt} />
      </p>
      <p>{item.why}</p>
      {item.text ? (
        <details className="set-aside-words">
          <summary>What the report says</summary>
          <pre>{item.text}</pre>
        </details>
      ) : null}
    </li>
  );
}

export function SetAsidePanel() {
  const [params] = useSearchParams();
  const parsed = setAsideQuerySchema.safeParse(Object.fromEntries(params));
  const page = parsed.success ? parsed.data.page : 1;
  const list = useResource(read("health.setAside", { query: { page } }));
  const data = list.data;
  return (
    <section className="health-set-aside" aria-labelledby="health-set-aside">
      <h2 id="health-set-aside">{SET_ASIDE_TEXTS.heading}</h2>
      <p className="health-lead">{SET_ASIDE_TEXTS.lead}</p>
      {list.error ? <Notice tone="error">{list.error}</Notice> : null}
      {list.loading && !data ? <p role="status">Loading…</p> : null}
      {data ? (
        <>
          {data.items.length === 0 ? (
            <p className="health-note">{SET_ASIDE_TEXTS.empty}</p>
          ) : (
            <ul className="set-aside">
              {data.items.map((item) => (
                <SetAsideItem key={item.id} item={item} />
              ))}
            </ul>
          )}
          <Pager
            label="Pages of mail set aside"
            page={page}
            pageSize={data.pageSize}
            total={data.total}
          />
        </>
      ) : null}
    </section>
  );
}
