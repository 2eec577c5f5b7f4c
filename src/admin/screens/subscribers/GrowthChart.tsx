/**
 * New subscriptions, imported addresses and unsubscriptions per month as a
 * small bar chart (an import is not growth the site brought, so it has a
 * bar of its own): the
 * bars are a drawing (hidden from screen readers), and the same numbers are
 * a table that only screen readers read. The bars stretch with the width;
 * the month names are text below them, so they stay legible on a phone.
 */
import type { MonthGrowth } from "../../../shared/admin/subscribers.ts";
import { formatMonth } from "./dates.ts";

/** Each month's slot in the drawing's own units; its three bars share it. */
const SLOT = 10;
const BAR = 2.8;
const SERIES = [
  { key: "subscribed", className: "growth-in" },
  { key: "imported", className: "growth-imported" },
  { key: "unsubscribed", className: "growth-out" },
] as const;
const HEIGHT = 100;

export function GrowthChart({ months }: { months: MonthGrowth[] }) {
  const top = Math.max(1, ...months.flatMap((m) => SERIES.map(({ key }) => m[key])));
  const height = (value: number) => (value / top) * HEIGHT;
  return (
    <figure className="growth">
      <figcaption className="growth-caption">
        <span>Growth per month</span>
        <span className="growth-legend" aria-hidden="true">
          <span className="growth-key growth-key-in">New</span>
          <span className="growth-key growth-key-imported">Imported</span>
          <span className="growth-key growth-key-out">Unsubscribed</span>
        </span>
      </figcaption>
      <div className="growth-plot" aria-hidden="true">
        <div className="growth-scale">
          <span>{top}</span>
          <span>0</span>
        </div>
        <svg
          className="growth-bars"
          viewBox={`0 0 ${months.length * SLOT} ${HEIGHT}`}
          preserveAspectRatio="none"
          aria-hidden="true"
          focusable="false"
        >
          {months.map((m, index) => {
            const left = index * SLOT + (SLOT - SERIES.length * BAR) / 2;
            return (
              <g key={m.month}>
                {SERIES.map(({ key, className }, bar) => (
                  <rect
                    key={key}
                    className={className}
                    x={left + bar * BAR}
                    y={HEIGHT - height(m[key])}
                    width={BAR}
                    height={height(m[key])}
                  />
                ))}
              </g>
            );
          })}
        </svg>
        <ol className="growth-months">
          {months.map((m) => (
            <li key={m.month}>{formatMonth(m.month, "short")}</li>
          ))}
        </ol>
      </div>
      {/* A wrapper hides it: a table is never narrower than its content, whatever its width. */}
      <div className="visually-hidden">
        <table>
          <caption>
            New subscriptions, imported addresses and unsubscriptions per month, the last twelve
            months
          </caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col">New subscriptions</th>
              <th scope="col">Imported</th>
              <th scope="col">Unsubscriptions</th>
            </tr>
          </thead>
          <tbody>
            {months.map((m) => (
              <tr key={m.month}>
                <th scope="row">{formatMonth(m.month, "long")}</th>
                <td>{m.subscribed}</td>
                <td>{m.imported}</td>
                <td>{m.unsubscribed}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
