/** §2 capabilities: cards show a name; hover or focus reveals the description. */
import type { ContentItem } from "../../../shared/content.ts";
import { ANCHORS } from "../../../shared/routes.ts";

export function Capabilities({ items }: { items: ContentItem[] }) {
  return (
    <section id={ANCHORS.capabilities} className="section" aria-labelledby="capabilities-title">
      <div className="container">
        <p className="eyebrow">Capabilities</p>
        <h2 id="capabilities-title">What we build with you</h2>
        <ul className="capabilities">
          {items.map((item, index) => (
            <li key={item.name}>
              {/* biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users reveal the description by focusing the card */}
              <article className="capability" tabIndex={0} aria-labelledby={`capability-${index}`}>
                <span className="capability__number" aria-hidden="true">
                  {String(index + 1).padStart(2, "0")}
                </span>
                <h3 id={`capability-${index}`} className="capability__name">
                  {item.name}
                </h3>
                <p className="capability__description">{item.description}</p>
              </article>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
