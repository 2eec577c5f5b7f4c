/**
 * The leadership carousel, loaded lazily by the /weare route.
 * A CSS scroll-snap track: touch swipe is native scrolling; the pagination
 * dots, the previous/next buttons and the arrow keys scroll it one slide at a
 * time. Slides per view and spacing come from CAROUSEL through the custom
 * properties that carousel-layout.ts sets, so JavaScript reads them back from
 * the track instead of knowing the breakpoints itself.
 */
import {
  type KeyboardEvent as ReactKeyboardEvent,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import { CAROUSEL } from "../../../shared/constants.ts";
import type { TeamMember } from "../../../shared/content.ts";
import { prefersReducedMotion } from "../../hooks/use-prefers-reduced-motion.ts";
import { TRACK_CLASS } from "./carousel-layout.ts";
import { LeadershipSlideContent } from "./LeadershipSlide.tsx";

/** How long the track must be still before a scroll counts as finished. */
const SCROLL_SETTLE_MS = 120;

function slidesOf(track: HTMLElement): HTMLElement[] {
  return Array.from(track.children) as HTMLElement[];
}

/** Horizontal scroll offset at which slide `index` is the first one in view. */
function offsetOfSlide(track: HTMLElement, index: number): number {
  const slides = slidesOf(track);
  const first = slides[0];
  const slide = slides[index];
  if (!first || !slide) return 0;
  return Math.min(slide.offsetLeft - first.offsetLeft, track.scrollWidth - track.clientWidth);
}

/** The slide whose start is nearest to the track's current scroll position. */
function nearestSlide(track: HTMLElement): number {
  const slides = slidesOf(track);
  let best = 0;
  let bestDistance = Number.POSITIVE_INFINITY;
  slides.forEach((_, index) => {
    const distance = Math.abs(offsetOfSlide(track, index) - track.scrollLeft);
    if (distance < bestDistance) {
      best = index;
      bestDistance = distance;
    }
  });
  return best;
}

function readSlidesPerView(track: HTMLElement): number {
  const value = Number.parseInt(getComputedStyle(track).getPropertyValue("--per-view"), 10);
  return Number.isFinite(value) && value > 0 ? value : CAROUSEL.default.slidesPerView;
}

function pad(value: number): string {
  return String(value).padStart(2, "0");
}

/** An empty list (a non-200 answer) leaves the section without a carousel. */
export default function LeadershipCarousel({ members }: { members: TeamMember[] }) {
  return members.length > 0 ? <Carousel members={members} /> : null;
}

function Carousel({ members }: { members: TeamMember[] }) {
  const trackId = useId();
  const trackRef = useRef<HTMLElement>(null);
  const [slidesPerView, setSlidesPerView] = useState(1);
  const [current, setCurrent] = useState(0);
  // The carousel's code arrives after the page (it is lazily loaded): until it
  // has hydrated, its buttons are the server's HTML and do nothing. Marked on
  // the track, for whoever needs to wait for it (the browser tests do).
  const [interactive, setInteractive] = useState(false);
  /** The slide a button or key asked for, while the track scrolls there. */
  const targetRef = useRef<number | null>(null);

  const count = members.length;
  const positions = Math.max(1, count - slidesPerView + 1);
  const lastPosition = positions - 1;
  const active = Math.min(current, lastPosition);

  // Slides per view follow the track's breakpoint; re-read it when the track
  // resizes, and aim a scroll still on its way at where its slide is now.
  useEffect(() => {
    const track = trackRef.current;
    if (!track) return;
    const measure = () => {
      const perView = readSlidesPerView(track);
      setSlidesPerView(perView);
      if (targetRef.current === null) return;
      const target = Math.min(targetRef.current, Math.max(0, slidesOf(track).length - perView));
      targetRef.current = target;
      setCurrent(target);
      track.scrollTo({
        left: offsetOfSlide(track, target),
        behavior: prefersReducedMotion() ? "auto" : "smooth",
      });
    };
    measure();
    setInteractive(true);
    const observer = new ResizeObserver(measure);
    observer.observe(track);
    return () => observer.disconnect();
  }, []);

  // Follow the scroll position: live while the visitor swipes, and once the
  // track is still after a button, a dot or a key scrolled it.
  useEffect(() => {
    const track = trackRef.current;
    if (!track) return;
    let frame = 0;
    let settleTimer: ReturnType<typeof setTimeout> | undefined;
    const settle = () => {
      clearTimeout(settleTimer);
      const nearest = nearestSlide(track);
      // While a slide is asked for, only coming to rest on it ends the wait.
      // The scrollend of an earlier scroll that the request cut short, or the
      // timer running out before the new scroll has started, would otherwise
      // reset the count half-way and send the next press to the wrong slide.
      if (targetRef.current !== null && targetRef.current !== nearest) return;
      targetRef.current = null;
      setCurrent(nearest);
    };
    // The visitor's own swipe or wheel takes over from a pending target.
    const release = () => {
      targetRef.current = null;
    };
    const onScroll = () => {
      if (!frame) {
        frame = requestAnimationFrame(() => {
          frame = 0;
          if (targetRef.current === null) setCurrent(nearestSlide(track));
        });
      }
      clearTimeout(settleTimer);
      settleTimer = setTimeout(settle, SCROLL_SETTLE_MS);
    };
    track.addEventListener("scroll", onScroll, { passive: true });
    track.addEventListener("scrollend", settle);
    track.addEventListener("touchstart", release, { passive: true });
    track.addEventListener("wheel", release, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(settleTimer);
      track.removeEventListener("scroll", onScroll);
      track.removeEventListener("scrollend", settle);
      track.removeEventListener("touchstart", release);
      track.removeEventListener("wheel", release);
    };
  }, []);

  const goTo = useCallback(
    (index: number) => {
      const track = trackRef.current;
      if (!track) return;
      const target = Math.min(Math.max(index, 0), lastPosition);
      const left = offsetOfSlide(track, target);
      setCurrent(target);
      if (Math.abs(track.scrollLeft - left) < 1) {
        // Already there: a scroll still setting off for another slide stops here.
        if (targetRef.current !== null) track.scrollTo({ left, behavior: "instant" });
        targetRef.current = null;
        return;
      }
      targetRef.current = target;
      track.scrollTo({ left, behavior: prefersReducedMotion() ? "auto" : "smooth" });
    },
    [lastPosition],
  );

  const step = (delta: number) => goTo((targetRef.current ?? active) + delta);

  const onKeyDown = (event: ReactKeyboardEvent<HTMLElement>) => {
    const moves: Record<string, () => void> = {
      ArrowLeft: () => step(-1),
      ArrowRight: () => step(1),
      Home: () => goTo(0),
      End: () => goTo(lastPosition),
    };
    const move = moves[event.key];
    if (!move || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    move();
  };

  const lastVisible = Math.min(count, active + slidesPerView);

  return (
    <div className="leadership-carousel">
      {/* biome-ignore lint/a11y/noNoninteractiveElementInteractions: the arrow keys move the focused carousel, as the carousel pattern expects */}
      <section
        id={trackId}
        ref={trackRef}
        className={TRACK_CLASS}
        data-interactive={interactive}
        aria-roledescription="carousel"
        aria-label="Leadership team"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable carousel must be reachable by keyboard
        tabIndex={0}
        onKeyDown={onKeyDown}
      >
        {members.map((member, index) => (
          // biome-ignore lint/a11y/useSemanticElements: a slide of the carousel pattern is a group, not a form fieldset
          <div
            key={member.fullname}
            className="leadership-slide"
            role="group"
            aria-roledescription="slide"
            aria-label={`${index + 1} of ${count}`}
          >
            <LeadershipSlideContent member={member} />
          </div>
        ))}
      </section>

      <div className="leadership-controls">
        {/* biome-ignore lint/a11y/useSemanticElements: a group of buttons, not a form's fieldset */}
        <div className="leadership-dots" role="group" aria-label="Choose slide">
          {Array.from({ length: positions }, (_, index) => (
            <button
              // biome-ignore lint/suspicious/noArrayIndexKey: one dot per position, the index is its identity
              key={index}
              type="button"
              className="leadership-dot"
              aria-label={`Go to slide ${index + 1} of ${count}`}
              aria-current={index === active ? "true" : undefined}
              aria-controls={trackId}
              onClick={() => goTo(index)}
            />
          ))}
        </div>

        <div className="leadership-nav">
          <p className="leadership-counter" aria-hidden="true">
            <span className="leadership-counter__current">{pad(active + 1)}</span> / {pad(count)}
          </p>
          <p className="visually-hidden" aria-live="polite">
            {lastVisible > active + 1
              ? `Showing team members ${active + 1} to ${lastVisible} of ${count}`
              : `Showing team member ${active + 1} of ${count}`}
          </p>
          <button
            type="button"
            className="leadership-arrow"
            aria-label="Previous slide"
            aria-controls={trackId}
            aria-disabled={active === 0}
            onClick={() => step(-1)}
          >
            <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d="M15 5l-7 7 7 7" />
            </svg>
          </button>
          <button
            type="button"
            className="leadership-arrow"
            aria-label="Next slide"
            aria-controls={trackId}
            aria-disabled={active === lastPosition}
            onClick={() => step(1)}
          >
            <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d="M9 5l7 7-7 7" />
            </svg>
          </button>
        </div>
      </div>
    </div>
  );
}
