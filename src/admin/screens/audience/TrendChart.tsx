/**
 * Visitors and page views per day, or per hour for a single day, drawn by
 * uPlot on a canvas. The drawing
 * is hidden from screen readers: the same numbers are a table in a
 * disclosure below it, which everyone can open (a keyboard user and a
 * screen-magnifier user read a table more easily than a hover), and which a
 * screen reader reaches as a normal button and table. Colours come from the
 * design tokens; a canvas takes colour values, not CSS variables.
 */
import { useEffect, useMemo, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { DayFigures, HourFigures } from "../../../shared/admin/audience.ts";
import { COLORS } from "../../../shared/design-tokens.ts";
import { hourSpan, longDay, shortDay, shortHour, whole } from "./format.ts";

const HEIGHT = 260;
const FONT = '12px "Inter Variable", system-ui, sans-serif';

/** A token's colour with some transparency, for the area under a line. */
function translucent(hex: string, alpha: number): string {
  const value = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255}, ${alpha})`;
}

const seconds = (day: string) => Date.parse(`${day}T00:00:00.000Z`) / 1000;

const HOUR_S = 3_600;
const DAY_S = 24 * HOUR_S;
/** Tick steps on the day axis: whole days, weeks and about-months only, never hours. */
const DAY_STEPS = [1, 2, 7, 14, 28, 56, 91].map((days) => days * DAY_S);
/** Tick steps on the hour axis: whole hours. */
const HOUR_STEPS = [1, 2, 3, 6, 12].map((hours) => hours * HOUR_S);

/** One point of the chart and row of its table: a day, or an hour of a single day. */
interface Point {
  /** Seconds since 1970, the start of the day or hour. */
  at: number;
  /** The table's row header, and the readout's start. */
  label: string;
  visitors: number;
  views: number;
  visits: number;
}

const UNITS = {
  day: { steps: DAY_STEPS, tick: shortDay, column: "Day (UTC)" },
  hour: { steps: HOUR_STEPS, tick: shortHour, column: "Hour (UTC)" },
} as const;
type Unit = keyof typeof UNITS;

function optionsFor(
  width: number,
  points: Point[],
  unit: Unit,
  readout: HTMLElement,
): uPlot.Options {
  const axis: uPlot.Axis = {
    stroke: COLORS.inkSoft,
    font: FONT,
    grid: { stroke: COLORS.line, width: 1 },
    ticks: { show: false },
  };
  return {
    width,
    height: HEIGHT,
    // The days are UTC days: shown as such, whatever the browser's zone.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "UTC"),
    padding: [12, 24, 0, 0],
    cursor: { points: { size: 7 }, drag: { x: false, y: false } },
    // The legend is the card's own (static keys); the day under the cursor is written above the plot.
    legend: { show: false },
    hooks: {
      setCursor: [
        (u) => {
          const point =
            u.cursor.idx === null || u.cursor.idx === undefined ? undefined : points[u.cursor.idx];
          readout.textContent = point
            ? `${point.label}: ${whole(point.visitors)} visitors, ${whole(point.views)} page views`
            : "";
        },
      ],
    },
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, max * 1.1)] } },
    axes: [
      {
        ...axis,
        grid: { show: false },
        space: 70,
        incrs: UNITS[unit].steps,
        values: (_u, ticks) => ticks.map((tick) => UNITS[unit].tick(tick)),
      },
      { ...axis, size: 50, values: (_u, ticks) => ticks.map((tick) => whole(tick)) },
    ],
    series: [
      { label: unit === "day" ? "Day" : "Hour" },
      {
        label: "Visitors",
        stroke: COLORS.accentInk,
        width: 2,
        fill: translucent(COLORS.accent, 0.12),
        points: { show: points.length <= 31 },
        value: (_u, v) => (v === null ? "–" : whole(v)),
      },
      {
        label: "Page views",
        stroke: COLORS.inkFaint,
        width: 1.5,
        dash: [4, 4],
        points: { show: false },
        value: (_u, v) => (v === null ? "–" : whole(v)),
      },
    ],
  };
}

/**
 * The chart of a period: its days, or with `hours` (a single day's) its
 * hours, with the same numbers in a table.
 */
export function TrendChart({
  series,
  hours,
  caption,
}: {
  series: DayFigures[];
  hours: HourFigures[] | null;
  caption: string;
}) {
  const holder = useRef<HTMLDivElement>(null);
  const readout = useRef<HTMLParagraphElement>(null);
  const unit: Unit = hours ? "hour" : "day";
  const points: Point[] = useMemo(() => {
    const day = series[0]?.day;
    if (hours && day) {
      return hours.map((hour) => ({
        ...hour,
        at: seconds(day) + Number(hour.hour) * HOUR_S,
        label: hourSpan(hour.hour),
      }));
    }
    return series.map((day) => ({ ...day, at: seconds(day.day), label: longDay(day.day) }));
  }, [series, hours]);

  useEffect(() => {
    const element = holder.current;
    if (!element || !readout.current) return;
    const data: uPlot.AlignedData = [
      points.map((point) => point.at),
      points.map((point) => point.visitors),
      points.map((point) => point.views),
    ];
    const chart = new uPlot(
      optionsFor(element.clientWidth, points, unit, readout.current),
      data,
      element,
    );
    const resize = new ResizeObserver(() => {
      chart.setSize({ width: element.clientWidth, height: HEIGHT });
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [points, unit]);

  return (
    <figure className="trend">
      <figcaption className="visually-hidden">{caption}</figcaption>
      <div aria-hidden="true">
        <div className="trend-legend">
          <span className="trend-key trend-key--visitors">Visitors</span>
          <span className="trend-key trend-key--views">Page views</span>
          <p className="trend-readout" ref={readout} />
        </div>
        <div className="trend-plot" ref={holder} />
      </div>
      <details className="trend-table">
        <summary>Show the {unit === "day" ? "daily" : "hourly"} figures as a table</summary>
        <section
          className="table-wrap trend-table-wrap"
          aria-label={caption}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to be scrolled without a pointer
          tabIndex={0}
        >
          <table>
            <caption className="visually-hidden">{caption}</caption>
            <thead>
              <tr>
                <th scope="col">{UNITS[unit].column}</th>
                <th scope="col" className="num">
                  Visitors
                </th>
                <th scope="col" className="num">
                  Page views
                </th>
                <th scope="col" className="num">
                  Visits
                </th>
              </tr>
            </thead>
            <tbody>
              {points.map((point) => (
                <tr key={point.at}>
                  <th scope="row">{point.label}</th>
                  <td className="num">{whole(point.visitors)}</td>
                  <td className="num">{whole(point.views)}</td>
                  <td className="num">{whole(point.visits)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </details>
    </figure>
  );
}
