/**
 * Sending health (owner only): whether the firm's domain is set up as the
 * mailbox providers expect, with the exact record to publish where it is
 * not, what came back about the mail sent, against the limits they hold
 * bulk senders to, and what the bounce mailbox set aside without acting.
 */
import type { DeliveryFigures, SendingHealth } from "../../../shared/admin/sending-health.ts";
import { COMPLAINT_LIMITS } from "../../../shared/admin/sending-health.ts";
import { read } from "../../api/client.ts";
import { useResource } from "../../api/useResource.ts";
import { Notice } from "../../components/Notice.tsx";
import { Moment } from "../people/Moment.tsx";
import { SetAsidePanel } from "./SetAsidePanel.tsx";
import "./health.css";

type Check = NonNullable<SendingHealth["checks"]>[number];

const CHECK_TITLES: Record<Check["name"], string> = {
  spf: "SPF: which servers may send",
  dkim: "DKIM: the signature",
  dmarc: "DMARC: the policy",
  "bounce-mx": "Bounce domain: where reports return",
};

const STATE_WORDS: Record<Check["state"], string> = {
  pass: "Passes",
  warn: "Works, with a warning",
  fail: "Fails",
};

const FIGURES_CAPTION = "Delivered mail, bounces and spam complaints";

const count = (value: number) => value.toLocaleString("en-GB");
const rate = (value: number | null) =>
  value === null ? "—" : `${value.toLocaleString("en-GB")} %`;

/** Where a complaint rate stands against the providers' limits. */
function complaintStanding(value: number | null): "pass" | "warn" | "fail" | null {
  if (value === null) return null;
  if (value >= COMPLAINT_LIMITS.neverAbove) return "fail";
  return value >= COMPLAINT_LIMITS.aimBelow ? "warn" : "pass";
}

function CheckItem({ check }: { check: Check }) {
  return (
    <li className={`health-check health-check--${check.state}`}>
      <h3>
        {CHECK_TITLES[check.name]}
        <span className={`health-state health-state--${check.state}`}>
          {STATE_WORDS[check.state]}
        </span>
      </h3>
      <p>{check.detail}</p>
      {check.found ? (
        <p className="health-found">
          Published now: <code>{check.found}</code>
        </p>
      ) : null}
      {check.publish ? (
        <div className="health-publish">
          <p>Publish this record at your DNS provider:</p>
          <dl>
            <dt>Type</dt>
            <dd>
              <code>{check.publish.type}</code>
            </dd>
            <dt>Name</dt>
            <dd>
              <code>{check.publish.name}</code>
            </dd>
            <dt>Value</dt>
            <dd>
              <code className="health-value">{check.publish.value}</code>
            </dd>
          </dl>
        </div>
      ) : null}
    </li>
  );
}

function Figures({ figures }: { figures: DeliveryFigures }) {
  const standing = complaintStanding(figures.complaintRate);
  return (
    <>
      <td>{count(figures.delivered)}</td>
      <td>
        {count(figures.hardBounces)}{" "}
        <span className="health-rate">({rate(figures.hardBounceRate)})</span>
      </td>
      <td>{count(figures.softBounces)}</td>
      <td className={standing ? `health-rate--${standing}` : undefined}>
        {count(figures.complaints)}{" "}
        <span className="health-rate">({rate(figures.complaintRate)})</span>
      </td>
    </>
  );
}

export default function SendingHealthScreen() {
  const health = useResource(read("health.show"));
  const data = health.data;
  return (
    <div className="sending-health">
      <div className="screen-head">
        <h1>Sending health</h1>
        <p className="screen-lead">
          Whether mail from the site reaches inboxes: the firm's domain as receiving servers see it,
          and what came back about the mail sent. Gmail and Yahoo want spam complaints below{" "}
          {COMPLAINT_LIMITS.aimBelow} % and refuse bulk mail above {COMPLAINT_LIMITS.neverAbove} %.
        </p>
      </div>
      {health.error ? <Notice tone="error">{health.error}</Notice> : null}
      {health.loading && !data ? <p role="status">Checking…</p> : null}
      {data ? (
        <>
          <section aria-labelledby="health-domain">
            <h2 id="health-domain">The firm's domain</h2>
            {data.checks ? (
              <ul className="health-checks">
                {data.checks.map((check) => (
                  <CheckItem key={check.name} check={check} />
                ))}
              </ul>
            ) : (
              <Notice tone="error">{data.checksUnavailable}</Notice>
            )}
          </section>
          <section aria-labelledby="health-figures">
            <h2 id="health-figures">What came back</h2>
            {/* A table wider than a phone scrolls inside this region, which the keyboard can reach. */}
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to be scrolled without a pointer */}
            <section className="table-wrap" aria-label={FIGURES_CAPTION} tabIndex={0}>
              <table className="health-table">
                <caption className="visually-hidden">{FIGURES_CAPTION}</caption>
                <thead>
                  <tr>
                    <th scope="col">Mail</th>
                    <th scope="col">Delivered</th>
                    <th scope="col">Hard bounces</th>
                    <th scope="col">Soft bounces</th>
                    <th scope="col">Complaints</th>
                  </tr>
                </thead>
                <tbody>
                  <tr>
                    <th scope="row">
                      All mail, last 30 days
                      <span className="health-note">
                        {count(data.lastThirtyDays.suppressed)} addresses suppressed
                      </span>
                    </th>
                    <Figures figures={data.lastThirtyDays} />
                  </tr>
                  {data.issues.map((issue) => (
                    <tr key={issue.id}>
                      <th scope="row">
                        {issue.title}
                        <span className="health-note">
                          {issue.finishedAt ? (
                            <>
                              Sent <Moment iso={issue.finishedAt} />
                            </>
                          ) : (
                            "Sending"
                          )}
                        </span>
                      </th>
                      <Figures figures={issue} />
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          </section>
        </>
      ) : null}
      <SetAsidePanel />
    </div>
  );
}
