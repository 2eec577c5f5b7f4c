/** The dark opening band of an inner page: eyebrow, title (the page's h1) and lede. */
import type { ReactNode } from "react";

interface PageHeroProps {
  id: string;
  eyebrow: string;
  title: string;
  children: ReactNode;
}

export function PageHero({ id, eyebrow, title, children }: PageHeroProps) {
  return (
    <section className="page-hero" aria-labelledby={id}>
      <div className="container">
        <p className="eyebrow">{eyebrow}</p>
        <h1 id={id}>{title}</h1>
        <p className="lede">{children}</p>
      </div>
    </section>
  );
}
