import { Link, type MetaFunction } from "react-router";
import { ROUTES } from "../../shared/routes.ts";
import { BackgroundVideo } from "../components/BackgroundVideo.tsx";
import { HomeLatest, HomeOutcomes } from "../features/home/HomeHighlights.tsx";
import { useHighlights } from "../hooks/use-highlights.ts";
import { useSiteEntries } from "../hooks/use-site-entries.ts";
import { useSiteFacts } from "../hooks/use-site-facts.ts";
import { countInWords } from "../lib/count-in-words.ts";
import { routeMeta } from "../lib/seo.ts";

export const meta: MetaFunction = ({ matches }) => routeMeta(ROUTES.home, matches);

export const links = () => [
  { rel: "preload", as: "image", href: "/video/home-poster.webp", fetchPriority: "high" },
];

/** The three ways on from Home; What We Do's counts the capabilities the firm shows now. */
function pathsFor(capabilities: number) {
  return [
    {
      to: ROUTES.weServe,
      label: "Who We Serve",
      text: "Case studies and the industries and technology needs we know well.",
    },
    {
      to: ROUTES.weDo,
      label: "What We Do",
      text: `${countInWords(capabilities, "capability", "capabilities")}, one method: business and technical experts side by side.`,
    },
    {
      to: ROUTES.weAre,
      label: "Who We Are",
      text: "The leadership team and the values behind every engagement.",
    },
  ];
}

export default function HomePage() {
  const { mission } = useSiteFacts();
  const highlights = useHighlights();
  const paths = pathsFor(useSiteEntries().capabilities.length);
  return (
    <>
      <section className="video-hero home-hero" aria-labelledby="home-hero-title">
        <BackgroundVideo name="home" />
        <h1 id="home-hero-title" className="home-hero__words container">
          <span className="home-hero__word">Business</span>{" "}
          <span className="home-hero__word home-hero__plus">+</span>{" "}
          <span className="home-hero__word">Technology</span>
        </h1>
      </section>

      <section className="mission-banner" aria-label="Our mission">
        <p className="mission-banner__text container">{mission}</p>
      </section>

      <section className="section home-pitch">
        <div className="container home-pitch__grid">
          <h2 className="home-pitch__headline">
            You Know the Business <span>We Know the Tech</span>
          </h2>
          <div>
            <p className="lede">
              Bring us the goal, the constraints and the people who know your market. We bring the
              engineers, data scientists and architects who turn it into working systems. Ready to
              talk? <Link to={ROUTES.contactUs}>contact us</Link>
            </p>
          </div>
        </div>
      </section>

      <HomeOutcomes outcomes={highlights.outcomes} />
      <HomeLatest {...highlights} />

      <section className="section section--warm" aria-labelledby="home-paths-title">
        <div className="container">
          <h2 id="home-paths-title" className="visually-hidden">
            Explore
          </h2>
          <ul className="home-paths">
            {paths.map((path) => (
              <li key={path.to}>
                <Link className="home-paths__card" to={path.to}>
                  <span className="home-paths__label">{path.label}</span>
                  <span className="home-paths__text">{path.text}</span>
                  <span className="home-paths__arrow" aria-hidden="true">
                    →
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </section>
    </>
  );
}
