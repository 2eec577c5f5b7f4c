/** The two-panel Industries & Tech Needs section of Who We Serve. */
import { Link } from "react-router";
import type { ContentItem } from "../../../shared/content.ts";
import { ANCHORS, ROUTES } from "../../../shared/routes.ts";
import { Reveal } from "../../components/Reveal.tsx";
import { NeedsPanel } from "./NeedsPanel.tsx";

interface IndustriesAndTechNeedsProps {
  industries: ContentItem[];
  techNeeds: ContentItem[];
}

export function IndustriesAndTechNeeds({ industries, techNeeds }: IndustriesAndTechNeedsProps) {
  return (
    <section
      id={ANCHORS.industriesAndTechNeeds}
      className="section section--warm needs"
      aria-labelledby="needs-heading"
    >
      <div className="container">
        <header className="needs__header">
          <div>
            <p className="eyebrow">Where we help</p>
            <h2 id="needs-heading">Industries &amp; Tech Needs</h2>
          </div>
          <p className="needs__intro">
            We bring the same paired team to every engagement: people who know your sector, and
            engineers who know what today's technology can do for it.
          </p>
        </header>
        <div className="needs__panels">
          <Reveal className="needs__reveal">
            <NeedsPanel
              category="industries"
              title="Industries"
              intro="Sectors where our teams have delivered measurable results."
              overview="Every sector has its own economics, rules and vocabulary. Our business leads have worked inside these industries, so each project starts from what matters to your customers, not from the technology."
              items={industries}
            />
          </Reveal>
          <Reveal className="needs__reveal">
            <NeedsPanel
              category="techneeds"
              title="Tech Needs"
              intro="The two ways we most often put technology to work."
              overview="Whether the answer is to connect the software you already own or to build something new, we scope it against a business goal and hand it over to a team that can run it."
              items={techNeeds}
            />
          </Reveal>
        </div>
        <aside className="needs__cta" aria-labelledby="needs-cta-heading">
          <div>
            <h3 id="needs-cta-heading">Don't see your industry?</h3>
            <p>
              The methods travel well. Tell us what you are trying to achieve and a partner will
              reply within two business days.
            </p>
          </div>
          <Link to={ROUTES.contactUs} className="button button--accent">
            Start a conversation
          </Link>
        </aside>
      </div>
    </section>
  );
}
