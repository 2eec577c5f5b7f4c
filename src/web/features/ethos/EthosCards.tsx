/**
 * The ethos flip cards: the front shows the title, the back its
 * description. A card flips on pointer enter and on focus, and back on pointer
 * leave and on blur. Both faces stay in the accessibility tree; the card is
 * named by its title and described by its description.
 */
import { type PointerEvent, type ReactNode, useId, useState } from "react";
import type { ContentItem } from "../../../shared/content.ts";

function EthosCard({ item, number }: { item: ContentItem; number: number }) {
  const [flipped, setFlipped] = useState(false);
  const id = useId();
  const titleId = `${id}-title`;
  const textId = `${id}-text`;

  // A touch has no hover: the pointer "leaves" as soon as the finger lifts, so
  // a tapped card stays flipped (it has focus) until focus moves elsewhere.
  const onPointerLeave = (event: PointerEvent) => {
    if (event.pointerType !== "touch") setFlipped(false);
  };

  return (
    // biome-ignore lint/a11y/noNoninteractiveElementInteractions: pointer and focus flip the card; it has no action to activate
    <article
      className={`ethos-card${flipped ? " is-flipped" : ""}`}
      aria-labelledby={titleId}
      aria-describedby={textId}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users flip the card by focusing it
      tabIndex={0}
      onPointerEnter={() => setFlipped(true)}
      onPointerLeave={onPointerLeave}
      onFocus={() => setFlipped(true)}
      onBlur={() => setFlipped(false)}
    >
      <div className="ethos-card__inner">
        <div className="ethos-card__face ethos-card__face--front">
          <span className="ethos-card__number" aria-hidden="true">
            {String(number).padStart(2, "0")}
          </span>
          <h3 id={titleId} className="ethos-card__title">
            {item.name}
          </h3>
          <span className="ethos-card__hint" aria-hidden="true" />
        </div>
        <div className="ethos-card__face ethos-card__face--back">
          <p className="ethos-card__back-title" aria-hidden="true">
            {item.name}
          </p>
          <p id={textId} className="ethos-card__text">
            {item.description}
          </p>
        </div>
      </div>
    </article>
  );
}

export function EthosGrid({ items, intro }: { items: ContentItem[]; intro: ReactNode }) {
  return (
    <div className="ethos-grid">
      <div className="ethos-grid__intro">{intro}</div>
      {items.map((item, index) => (
        <EthosCard key={item.name} item={item} number={index + 1} />
      ))}
    </div>
  );
}
