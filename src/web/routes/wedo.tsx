import { BackgroundVideo } from "../components/BackgroundVideo.tsx";
import { Capabilities } from "../features/capabilities/Capabilities.tsx";
import { Methodology } from "../features/methodology/Methodology.tsx";
import { pageMeta } from "../lib/pageTitle.ts";

export const meta = () =>
  pageMeta(
    "What We Do",
    "Our capabilities and the method that pairs business and technical experts.",
  );

export default function WeDoPage() {
  return (
    <>
      <section className="video-hero" aria-labelledby="wedo-title">
        <BackgroundVideo name="wedo" />
        <div className="container video-hero__content">
          <h1 id="wedo-title">What We Do</h1>
          <p className="lede">
            From strategy to shipped systems: we design, build and run the technology that moves
            your business forward.
          </p>
        </div>
      </section>
      <Capabilities />
      <Methodology />
    </>
  );
}
