/**
 * Visitors and page views per day, drawn by uPlot on a canvas. The drawing
 * is hidden from screen readers: the same numbers are a table in a
 * disclosure below it, which everyone can open (a keyboard user and a
 * screen-magnifier user read a table more easily than a hover), and which a
 * screen reader reaches as a normal button and table. Colours come from the
 * design tokens; a canvas takes colour values, not CSS variables.
 */
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { DayFigures } from "../../../shared/admin/audience.ts";
import { COLORS } from "../../../shared/design-tokens.ts";
import { longDay, shortDay, whole } from "./format.ts";

const HEIGHT = 260;
const FONT = '12px "Inter Variable", system-ui, sans-serif';

/** A token's colour with some transparency, for the area under a line. */
function translucent(hex: string, alpha: number): string {
  const value = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255}, ${alpha})`;
}

const seconds = (day: string) => Date.parse(`${day}T00:00:00.000Z`) / 1000;

const DAY_S = 86_400;
/** Tick steps on the day axis: whole days, weeks and about-months only, never hours. */
const DAY_STEPS = [1, 2, 7, 14, 28, 56, 91].map((days) => days * DAY_S);

function optionsFor(width: number, series: DayFigures[], readout: HTMLElement): uPlot.Options {
  const days = series.length;
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
          const day =
            u.cursor.idx === null || u.cursor.idx === undefined ? undefined : series[u.cursor.idx];
          readout.textContent = day
            ? `${longDay(day.day)}: ${whole(day.visitors)} visitors, ${whole(day.views)} page views`
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
        incrs: DAY_STEPS,
        values: (_u, ticks) => ticks.map((tick) => shortDay(tick)),
      },
      { ...axis, size: 50, values: (_u, ticks) => ticks.map((tick) => whole(tick)) },
    ],
    series: [
      { label: "Day" },
      {
        label: "Visitors",
        stroke: COLORS.accentInk,
        width: 2,
        fill: translucent(COLORS.accent, 0.12),
        points: { show: days <= 31 },
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

export function TrendChart({ series, caption }: { series: DayFigures[]; caption: string }) {
  const holder = useRef<HTMLDivElement>(null);
  const readout = useRef<HTMLParagraphElement>(null);
  const drawn = series.length > 1;

  useEffect(() => {
    const element = holder.current;
    if (!element || !readout.current || series.length < 2) return;
    const data: uPlot.AlignedData = [
      series.map((day) => seconds(day.day)),
      series.map((day) => day.visitors),
      series.map((day) => day.views),
    ];
    const chart = new uPlot(
      optionsFor(element.clientWidth, series, readout.current),
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
  }, [series]);

  return (
    <figure className="trend">
      <figcaption className="visually-hidden">{caption}</figcaption>
      {drawn ? (
        <div aria-hidden="true">
          <div className="trend-legend">
            <span className="trend-key trend-key--visitors">Visitors</span>
            <span className="trend-key trend-key--views">Page views</span>
            <p className="trend-readout" ref={readout} />
          </div>
          <div className="trend-plot" ref={holder} />
        </div>
      ) : (
        <p className="card-quiet">One day: its figures are above, and in the table below.</p>
      )}
      <details className="trend-table">
        <summary>Show the daily figures as a table</summary>
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
                <th scope="col">Day (UTC)</th>
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
              {series.map((day) => (
                <tr key={day.day}>
                  <th scope="row">{longDay(day.day)}</th>
                  <td className="num">{whole(day.visitors)}</td>
                  <td className="num">{whole(day.views)}</td>
                  <td className="num">{whole(day.visits)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </details>
    </figure>
  );
}
