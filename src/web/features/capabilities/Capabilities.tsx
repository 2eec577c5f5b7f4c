/**
 * Capabilities: cards show a name and the start of their description;
 * hover or focus reveals the whole description (capabilities.css). A link to
 * a card's anchor (#capabilities-automation, as the mega-menu has) marks it.
 */
import { useEffect, useState } from "react";
import { useLocation } from "react-router";
import type { ContentItem } from "../../../shared/content.ts";
import { entryAnchor } from "../../../shared/entry-anchor.ts";
import { ANCHORS } from "../../../shared/routes.ts";

export function Capabilities({ items }: { items: ContentItem[] }) {
  const { hash } = useLocation();
  // Read after hydration: the server never sees the anchor.
  const [target, setTarget] = useState("");
  useEffect(() => setTarget(hash.slice(1)), [hash]);

  return (
    <section id={ANCHORS.capabilities} className="section" aria-labelledby="capabilities-title">
      <div className="container">
        <p className="eyebrow">Capabilities</p>
        <h2 id="capabilities-title">What we build with you</h2>
        <ul className="capabilities">
          {items.map((item, index) => {
            const anchor = entryAnchor("capabilities", item.name);
            return (
              <li key={item.name}>
                <article
                  id={anchor}
                  className="capability"
                  // biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users reveal the description by focusing the card
                  tabIndex={0}
                  aria-labelledby={`capability-${index}`}
                  aria-current={anchor === target ? "location" : undefined}
                >
                  <span className="capability__number" aria-hidden="true">
                    {String(index + 1).padStart(2, "0")}
                  </span>
                  <h3 id={`capability-${index}`} className="capability__name">
                    {item.name}
                  </h3>
                  <p className="capability__description">{item.description}</p>
                </article>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
