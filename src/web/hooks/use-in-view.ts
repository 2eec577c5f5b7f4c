/**
 * Whether at least `threshold` of an element is visible; reverts when it is
 * not, unless `once` keeps it visible after the first time.
 */
import { type RefObject, useEffect, useRef, useState } from "react";
import { FADE_IN_THRESHOLD } from "../../shared/constants.ts";

export function useInView<T extends Element>({
  threshold = FADE_IN_THRESHOLD,
  once = false,
} = {}): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [inView, setInView] = useState(false);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (!entry) return;
        setInView(entry.isIntersecting);
        if (once && entry.isIntersecting) observer.disconnect();
      },
      { threshold },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [threshold, once]);

  return [ref, inView];
}
