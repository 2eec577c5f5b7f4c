/**
 * Methodology: the lines appear one after another (a cascade with damping
 * 0.2 of the 1000 ms animation) the first time the section comes into view.
 * Each line's delay is set through the CSSOM once it is in the document: a
 * style attribute in the server's HTML would need 'unsafe-inline' in the
 * Content-Security-Policy, and without script the lines do not animate.
 */
import { METHODOLOGY_CASCADE_DAMPING, SCROLL_ANIMATION } from "../../../shared/constants.ts";
import { ANCHORS } from "../../../shared/routes.ts";
import { SITE } from "../../../shared/site.ts";
import { useInView } from "../../hooks/use-in-view.ts";

export const CASCADE_STEP_MS = SCROLL_ANIMATION.durationMs * METHODOLOGY_CASCADE_DAMPING;

const delayLine = (index: number) => (line: HTMLLIElement | null) => {
  line?.style.setProperty("--cascade-delay", `${index * CASCADE_STEP_MS}ms`);
};

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
            <li key={line} ref={delayLine(index)} className="cascade__line">
              {line}
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
