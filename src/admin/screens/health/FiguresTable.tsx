/**
 * What came back about the mail sent, over the last 30 days and per recent
 * Insight issue: the copies that left, bounces and complaints. With no mail
 * server set, nothing left: the copies were only written to the mail
 * folder, and the first column says so instead of "Delivered".
 */
import type { DeliveryFigures, SendingHealth } from "../../../shared/admin/sending-health.ts";
import { COMPLAINT_LIMITS } from "../../../shared/admin/sending-health.ts";
import { Moment } from "../people/Moment.tsx";

export const SENT_LABELS = {
  delivered: "Delivered",
  toFolder: "Written to the mail folder",
} as const;

const count = (value: number) => value.toLocaleString("en-GB");
const rate = (value: number | null) =>
  value === null ? "—" : `${value.toLocaleString("en-GB")} %`;

/** Where a complaint rate stands against the providers' limits. */
function complaintStanding(value: number | null): "pass" | "warn" | "fail" | null {
  if (value === null) return null;
  if (value >= COMPLAINT_LIMITS.neverAbove) return "fail";
  return value >= COMPLAINT_LIMITS.aimBelow ? "warn" : "pass";
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

export function FiguresTable({
  health,
}: {
  health: Pick<SendingHealth, "mailOnlyToFolder" | "lastThirtyDays" | "issues">;
}) {
  const sent = health.mailOnlyToFolder ? SENT_LABELS.toFolder : SENT_LABELS.delivered;
  const caption = `${sent}, bounces and spam complaints`;
  return (
    <>
      {health.mailOnlyToFolder ? (
        <p className="health-folder-note">
          No mail server is set, so no message has left the server: the counts below are messages
          written to the mail folder, which nobody receives.
        </p>
      ) : null}
      {/* A table wider than a phone scrolls inside this region, which the keyboard can reach. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to be scrolled without a pointer */}
      <section className="table-wrap" aria-label={caption} tabIndex={0}>
        <table className="health-table">
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Mail</th>
              <th scope="col">{sent}</th>
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
                  {count(health.lastThirtyDays.suppressed)} addresses suppressed
                </span>
              </th>
              <Figures figures={health.lastThirtyDays} />
            </tr>
            {health.issues.map((issue) => (
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
    </>
  );
}
