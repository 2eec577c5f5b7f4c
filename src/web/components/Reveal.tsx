/** Fades and scales its content in when 20 % of it is visible, and back out when not. */
import type { ReactNode } from "react";
import { useInView } from "../hooks/use-in-view.ts";

export function Reveal({ children, className = "" }: { children: ReactNode; className?: string }) {
  const [ref, inView] = useInView<HTMLDivElement>();
  return (
    <div ref={ref} className={`reveal ${inView ? "is-visible" : ""} ${className}`.trim()}>
      {children}
    </div>
  );
}
