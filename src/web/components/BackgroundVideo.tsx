/**
 * A looping, muted, inline background video (§2). It starts only when the
 * visitor has not asked for reduced motion; otherwise the poster stays.
 */
import { useEffect, useRef } from "react";
import { prefersReducedMotion } from "../hooks/usePrefersReducedMotion.ts";

const VIDEO_SIZE = { width: 1280, height: 720 } as const;

/** Fills its positioned parent, with a shade so white text on top stays readable. */
export function BackgroundVideo({ name }: { name: string }) {
  const ref = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    const video = ref.current;
    if (!video || prefersReducedMotion()) return;
    video.muted = true;
    video.play().catch(() => {
      // Autoplay refused (data saver, power saving): the poster stays, as with reduced motion.
    });
  }, []);

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
      >
        <source src={`/video/${name}.webm`} type="video/webm" />
        <source src={`/video/${name}.mp4`} type="video/mp4" />
      </video>
      <div className="bg-video__shade" />
    </>
  );
}
