/**
 * The weekly digest an owner may ask for (AUDIENCE_DIGEST): last week's
 * figures beside the week before's, the pages most visited and where the
 * visits came from, and the leads they brought, with a link to the
 * Audience area. Pages and referrers come from visitors' requests: React
 * escapes them in the HTML, and the text part folds each to one line.
 */
import {
  AUDIENCE_SCREEN,
  type BreakdownRow,
  changeText,
  type Period,
  type Totals,
  valueLabel,
} from "../../../shared/admin/audience.ts";
import { COLORS } from "../../../shared/design-tokens.ts";
import { EMAIL_FONT } from "../../platform/markdown/markdown.ts";
import { MailFrame, MailHeading, MailLink, Paragraph } from "../../platform/outbox/layout.tsx";
import { AUTO_SUBMITTED, type MailMessage, newMessageId } from "../../platform/outbox/message.ts";
import { ROWS_IN_TEXT, renderMail } from "../../platform/outbox/render.ts";

export const AUDIENCE_DIGEST_KIND = "audience-digest";

export interface DigestFigures {
  week: Period;
  weekBefore: Period;
  totals: Totals;
  previous: Totals;
  pages: BreakdownRow[];
  channels: BreakdownRow[];
  referrers: BreakdownRow[];
}

const NUMBER = new Intl.NumberFormat("en-GB");
const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", timeZone: "UTC" });
const DAY_YEAR = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

const dateOf = (day: string) => new Date(`${day}T00:00:00.000Z`);

/** "16 – 22 November 2026" */
export function weekText(period: Period): string {
  const first = period.from.slice(0, 4) === period.to.slice(0, 4) ? DAY : DAY_YEAR;
  return `${first.format(dateOf(period.from))} – ${DAY_YEAR.format(dateOf(period.to))}`;
}

const FIGURES: {
  key: keyof Totals & ("visitors" | "views" | "visits" | "inquiries" | "subscriptions");
  label: string;
}[] = [
  { key: "visitors", label: "Visitors" },
  { key: "views", label: "Page views" },
  { key: "visits", label: "Visits" },
  { key: "inquiries", label: "Inquiries" },
  { key: "subscriptions", label: "New subscriptions" },
];

const cell = {
  padding: "6px 8px 6px 0",
  fontFamily: EMAIL_FONT,
  fontSize: "15px",
  lineHeight: "1.4",
  color: COLORS.ink,
  borderBottom: `1px solid ${COLORS.line}`,
  textAlign: "left",
} as const;
const number = { ...cell, textAlign: "right", whiteSpace: "nowrap" } as const;
const head = { ...cell, fontSize: "13px", color: COLORS.inkSoft, fontWeight: "normal" } as const;
const headNumber = { ...head, textAlign: "right" } as const;

function FiguresTable({ totals, previous }: { totals: Totals; previous: Totals }) {
  return (
    <table
      {...ROWS_IN_TEXT}
      cellPadding={0}
      cellSpacing={0}
      style={{ borderCollapse: "collapse", width: "100%", margin: "0 0 24px" }}
    >
      <thead>
        <tr>
          <th scope="col" style={head}>
            Figure
          </th>
          <th scope="col" style={headNumber}>
            Last week
          </th>
          <th scope="col" style={headNumber}>
            Week before
          </th>
          <th scope="col" style={headNumber}>
            Change
          </th>
        </tr>
      </thead>
      <tbody>
        {FIGURES.map(({ key, label }) => (
          <tr key={key}>
            <th scope="row" style={{ ...cell, fontWeight: "normal" }}>
              {label}
            </th>
            <td style={{ ...number, fontWeight: "bold" }}>{NUMBER.format(totals[key])}</td>
            <td style={{ ...number, color: COLORS.inkSoft }}>{NUMBER.format(previous[key])}</td>
            <td style={number}>{changeText(totals[key], previous[key])}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ListTable({
  caption,
  column,
  rows,
  dimension,
}: {
  caption: string;
  column: string;
  rows: BreakdownRow[];
  dimension: "page" | "channel" | "referrer";
}) {
  return (
    <>
      <Paragraph>
        <strong>{caption}</strong>
      </Paragraph>
      <table
        {...ROWS_IN_TEXT}
        cellPadding={0}
        cellSpacing={0}
        style={{ borderCollapse: "collapse", width: "100%", margin: "-8px 0 24px" }}
      >
        <thead>
          <tr>
            <th scope="col" style={head}>
              {column}
            </th>
            <th scope="col" style={headNumber}>
              Visits
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.value}>
              <td style={{ ...cell, wordBreak: "break-all" }}>
                {valueLabel(dimension, row.value)}
              </td>
              <td style={number}>{NUMBER.format(row.visits)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** The week's lists, in the mail's order; an empty one is left out. */
function listsOf(figures: DigestFigures) {
  const lists = [
    { caption: "Most visited pages", column: "Page", rows: figures.pages, dimension: "page" },
    { caption: "Channels", column: "Channel", rows: figures.channels, dimension: "channel" },
    {
      caption: "Top referrers",
      column: "Referrer",
      rows: figures.referrers,
      dimension: "referrer",
    },
  ] as const;
  return lists.filter((list) => list.rows.length > 0);
}

/** The link to the Audience area showing the digest's week. */
export function digestLink(publicOrigin: string, week: Period): string {
  const query = new URLSearchParams({ range: "custom", from: week.from, to: week.to });
  return `${publicOrigin}/admin/${AUDIENCE_SCREEN}?${query}`;
}

export function audienceDigestMail(
  to: string,
  figures: DigestFigures,
  { from, publicOrigin }: { from: string; publicOrigin: string },
): MailMessage {
  const { week, totals, previous } = figures;
  const subject = `The website last week: ${NUMBER.format(totals.visitors)} visitors, ${NUMBER.format(totals.inquiries)} ${totals.inquiries === 1 ? "inquiry" : "inquiries"}`;
  const title = `Week of ${weekText(week)}`;
  const link = digestLink(publicOrigin, week);
  const quiet = totals.visits === 0;
  const lead = quiet
    ? "No visit was counted last week."
    : `Last week (Monday to Sunday, UTC) beside the week before (${weekText(figures.weekBefore)}).`;
  return {
    messageId: newMessageId(from),
    from,
    to,
    subject,
    headers: AUTO_SUBMITTED,
    ...renderMail(
      <MailFrame title={subject}>
        <MailHeading>{title}</MailHeading>
        <Paragraph>{lead}</Paragraph>
        <FiguresTable totals={totals} previous={previous} />
        {listsOf(figures).map((list) => (
          <ListTable key={list.dimension} {...list} />
        ))}
        <Paragraph>
          <MailLink href={link}>Open the Audience area</MailLink> for every figure of the week.
        </Paragraph>
        <Paragraph small>
          You get this because the site's AUDIENCE_DIGEST setting is on; it stops when it is set to
          false.
        </Paragraph>
      </MailFrame>,
    ),
  };
}
