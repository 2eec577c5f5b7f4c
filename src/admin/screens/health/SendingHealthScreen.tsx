/**
 * Sending health (owner only): whether the firm's domain is set up as the
 * mailbox providers expect, with the exact record to publish where it is
 * not, what came back about the mail sent, against the limits they hold
 * bulk senders to, and what the bounce mailbox set aside without acting.
 */
import type { SendingHealth } from "../../../shared/admin/sending-health.ts";
import { COMPLAINT_LIMITS } from "../../../shared/admin/sending-health.ts";
import { read } from "../../api/client.ts";
import { useResource } from "../../api/use-resource.ts";
import { Notice } from "../../components/Notice.tsx";
import { FiguresTable } from "./FiguresTable.tsx";
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
            <FiguresTable health={data} />
          </section>
        </>
      ) : null}
      <SetAsidePanel />
    </div>
  );
}
