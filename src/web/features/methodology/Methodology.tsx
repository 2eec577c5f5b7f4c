/**
 * §2 methodology: the lines appear one after another (a cascade with damping
 * 0.2 of the 1000 ms animation) the first time the section comes into view.
 */
import type { CSSProperties } from "react";
import { METHODOLOGY_CASCADE_DAMPING, SCROLL_ANIMATION } from "../../../shared/constants.ts";
import { ANCHORS } from "../../../shared/routes.ts";
import { SITE } from "../../../shared/site.ts";
import { useInView } from "../../hooks/useInView.ts";

export const CASCADE_STEP_MS = SCROLL_ANIMATION.durationMs * METHODOLOGY_CASCADE_DAMPING;

export function Methodology() {
  const [ref, inView] = useInView<HTMLOListElement>({ once: true });
  return (
    <section
      id={ANCHORS.methodology}
      className="section section--night"
      aria-labelledby="methodology-title"
    >
      <div className="container methodology">
        <div>
          <p className="eyebrow">Methodology</p>
          <h2 id="methodology-title">Business and technology, in one team</h2>
        </div>
        <ol ref={ref} className={`cascade ${inView ? "is-visible" : ""}`}>
          {SITE.methodology.map((line, index) => (
            <li
              key={line}
              className="cascade__line"
              style={{ "--cascade-delay": `${index * CASCADE_STEP_MS}ms` } as CSSProperties}
            >
              {line}
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
