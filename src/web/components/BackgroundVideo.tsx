/**
 * A looping, muted, inline background video. It starts only when the
 * visitor has not asked for reduced motion; otherwise the poster stays. A
 * visible button pauses and plays it (WCAG 2.2.2: moving content that lasts
 * more than five seconds can be paused).
 */
import { useEffect, useRef, useState } from "react";
import { prefersReducedMotion } from "../hooks/use-prefers-reduced-motion.ts";

const VIDEO_SIZE = { width: 1280, height: 720 } as const;

export const VIDEO_CONTROL_LABEL = {
  pause: "Pause background video",
  play: "Play background video",
} as const;

/** Fills its positioned parent, with a shade so white text on top stays readable. */
export function BackgroundVideo({ name }: { name: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  // The button works only with script, so it appears once the page is hydrated.
  const [interactive, setInteractive] = useState(false);

  useEffect(() => {
    setInteractive(true);
    const video = ref.current;
    if (!video || prefersReducedMotion()) return;
    video.muted = true;
    video.play().catch(() => {
      // Autoplay refused (data saver, power saving): the poster stays, as with reduced motion.
    });
  }, []);

  const toggle = () => {
    const video = ref.current;
    if (!video) return;
    if (video.paused) video.play().catch(() => {});
    else video.pause();
  };

  return (
    <>
      <video
        ref={ref}
        className="bg-video"
        poster={`/video/${name}-poster.webp`}
        width={VIDEO_SIZE.width}
        height={VIDEO_SIZE.height}
        muted
        loop
        playsInline
        preload="none"
        aria-hidden="true"
        tabIndex={-1}
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
      >
        <source src={`/video/${name}.webm`} type="video/webm" />
        <source src={`/video/${name}.mp4`} type="video/mp4" />
      </video>
      <div className="bg-video__shade" />
      {interactive ? (
        <button
          type="button"
          className="bg-video__control"
          onClick={toggle}
          aria-label={playing ? VIDEO_CONTROL_LABEL.pause : VIDEO_CONTROL_LABEL.play}
        >
          <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
            {playing ? (
              <path d="M4 2h3v12H4zM9 2h3v12H9z" fill="currentColor" />
            ) : (
              <path d="M4 2.5v11l9-5.5z" fill="currentColor" />
            )}
          </svg>
        </button>
      ) : null}
    </>
  );
}
