/**
 * The way to an inquiry: every visit, those that reached the contact page,
 * and those of them that sent an inquiry, each with its share of the visits
 * and, beside it, the period before's. A table, with bars drawn behind the
 * counts; each step counts visits, so none outnumbers the one before.
 */
import { AUDIENCE_PATHS, type Funnel } from "../../../shared/admin/audience.ts";
import { withQuery } from "../../api/client.ts";
import { percent, whole } from "./format.ts";
import type { RangeChoice } from "./RangePicker.tsx";

const STEPS: { key: keyof Funnel; label: string }[] = [
  { key: "landing", label: "Visits" },
  { key: "contact", label: "Reached the contact page" },
  { key: "inquiries", label: "Sent an inquiry" },
];

export function FunnelCard({
  funnel,
  previous,
  choice,
}: {
  funnel: Funnel;
  previous: Funnel;
  choice: RangeChoice;
}) {
  const share = (value: number, of: Funnel) => (of.landing === 0 ? null : value / of.landing);
  return (
    <section className="card" aria-labelledby="funnel-title">
      <div className="card-head">
        <h2 id="funnel-title">From visit to inquiry</h2>
        {funnel.landing > 0 ? (
          <a
            className="card-csv"
            href={withQuery(AUDIENCE_PATHS.export, { ...choice, table: "funnel" })}
            download
            aria-label="Download CSV: from visit to inquiry"
          >
            Download CSV
          </a>
        ) : null}
      </div>
      {funnel.landing === 0 ? (
        <p className="card-quiet">No visit counted in this period, so no step to show.</p>
      ) : (
        <table className="breakdown">
          <caption className="visually-hidden">From visit to inquiry</caption>
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col" className="num">
                Count
              </th>
              <th scope="col" className="num">
                Of visits
              </th>
              <th scope="col" className="num">
                Before
              </th>
            </tr>
          </thead>
          <tbody>
            {STEPS.map(({ key, label }) => {
              const part = share(funnel[key], funnel);
              return (
                <tr key={key}>
                  <th scope="row" className="bar-cell">
                    <span
                      className="bar"
                      style={{ inlineSize: `${((part ?? 0) * 100).toFixed(1)}%` }}
                      aria-hidden="true"
                    />
                    <span className="bar-name">{label}</span>
                  </th>
                  <td className="num">{whole(funnel[key])}</td>
                  <td className="num">{percent(part)}</td>
                  <td className="num quiet">{percent(share(previous[key], previous))}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
