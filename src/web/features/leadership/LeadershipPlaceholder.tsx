/**
 * The part of the leadership section that ships with the route itself: the
 * placeholder that holds the carousel's place (same layout, similar height)
 * while the team list and the lazily loaded carousel arrive. Its layout comes
 * from carouselLayout.ts, inlined with the site's styles by root.tsx.
 */
import { MAX_SLIDES_PER_VIEW, TRACK_CLASS } from "./carouselLayout.ts";

const PLACEHOLDER_SLIDES = Array.from({ length: MAX_SLIDES_PER_VIEW }, (_, index) => index);

export function LeadershipPlaceholder() {
  return (
    <div className="leadership-carousel leadership-carousel--placeholder" aria-hidden="true">
      <div className={TRACK_CLASS}>
        {PLACEHOLDER_SLIDES.map((index) => (
          <div key={index} className="leadership-slide">
            <div className="leadership-slide__photo leadership-skeleton" />
            <div className="leadership-slide__body">
              <div className="leadership-skeleton leadership-skeleton--name" />
              <div className="leadership-skeleton leadership-skeleton--title" />
              <div className="leadership-skeleton leadership-skeleton--line" />
              <div className="leadership-skeleton leadership-skeleton--line" />
              <div className="leadership-skeleton leadership-skeleton--line" />
            </div>
          </div>
        ))}
      </div>
      <div className="leadership-controls" />
    </div>
  );
}
