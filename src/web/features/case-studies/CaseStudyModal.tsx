/** One case study in a modal: The Opportunity, The Solution and The Work (spec §2). */
import { Link } from "react-router";
import { ROUTES } from "../../../shared/routes.ts";
import { Modal } from "../../components/Modal.tsx";
import { type CaseStudy, sectorOf } from "./data.ts";

const SECTIONS = [
  { key: "opportunity", heading: "The Opportunity" },
  { key: "solution", heading: "The Solution" },
  { key: "work", heading: "The Work" },
] as const;

interface CaseStudyModalProps {
  study: CaseStudy;
  open: boolean;
  onClose: () => void;
}

export function CaseStudyModal({ study, open, onClose }: CaseStudyModalProps) {
  const titleId = `${study.slug}-dialog-title`;
  const summaryId = `${study.slug}-dialog-summary`;

  return (
    <Modal
      open={open}
      onClose={onClose}
      labelledBy={titleId}
      describedBy={summaryId}
      className="case-study-modal"
    >
      <div className="case-study-modal__bar">
        <p className="case-study-modal__kicker">Case study · {sectorOf(study)}</p>
        <button
          type="button"
          className="case-study-modal__close"
          aria-label="Close"
          onClick={onClose}
        >
          <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">
            <path
              d="M5 5l10 10M15 5L5 15"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
            />
          </svg>
        </button>
      </div>
      <div className="case-study-modal__body">
        <h2 id={titleId} className="case-study-modal__title">
          {study.title}
        </h2>
        <p id={summaryId} className="case-study-modal__summary">
          {study.summary}
        </p>
        {SECTIONS.map(({ key, heading }) => (
          <section key={key} className="case-study-modal__section">
            <h3>{heading}</h3>
            <div>
              {study[key].map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
            </div>
          </section>
        ))}
      </div>
      <div className="case-study-modal__footer">
        <p>Facing a similar challenge?</p>
        <Link to={ROUTES.contactUs} className="button button--accent">
          Talk to us
        </Link>
      </div>
    </Modal>
  );
}
