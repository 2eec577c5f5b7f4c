/** A case study in a modal over Who We Serve, at the case study's own address. */
import { type CaseStudy, sectorOf } from "../../../shared/content.ts";
import { Modal } from "../../components/Modal.tsx";
import { CaseStudyArticle, caseStudyIds } from "./CaseStudyArticle.tsx";

export function CaseStudyModal({ study, onClose }: { study: CaseStudy; onClose: () => void }) {
  const ids = caseStudyIds(study);
  return (
    <Modal
      open
      onClose={onClose}
      labelledBy={ids.title}
      describedBy={ids.summary}
      className="case-study-modal"
    >
      <div className="case-study-modal__bar">
        <p className="case-study__kicker">Case study · {sectorOf(study)}</p>
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
      <CaseStudyArticle study={study} headingLevel={2} />
    </Modal>
  );
}
