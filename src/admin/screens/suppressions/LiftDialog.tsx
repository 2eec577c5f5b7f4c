/**
 * Lifting a suppression asks once more, saying what it does: mail goes to
 * the address again, and what that risks for the reason it was suppressed.
 */
import type { SuppressionReason, SuppressionRow } from "../../../shared/admin/suppressions.ts";
import { api } from "../../api/client.ts";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";

/** When lifting is right, and what happens if it was not. */
const CAUTIONS: Record<SuppressionReason, string> = {
  "hard-bounce":
    "Its mail server said the mailbox does not exist. Lift it when the person tells you the address works again: if it still bounces, it returns to this list, and each bounce counts against the firm's domain.",
  complaint:
    "Its reader marked the firm's mail as spam. Lift it only when they ask for Insight again: another complaint counts heavily against the firm's domain with mail providers.",
  "soft-bounces":
    "Its mailbox refused mail again and again, full or out of reach. Lift it when the person tells you it works again: if it keeps refusing, it returns to this list.",
};

interface LiftDialogProps {
  suppression: SuppressionRow | null;
  onClose(): void;
  onLifted(suppression: SuppressionRow): void;
}

export function LiftDialog({ suppression, onClose, onLifted }: LiftDialogProps) {
  async function lift() {
    if (!suppression) return;
    await api.call("suppressions.lift", { params: { id: suppression.id } });
    onLifted(suppression);
  }

  return (
    <ConfirmDialog
      open={suppression !== null}
      title="Lift this suppression?"
      confirmLabel="Lift suppression"
      dismissLabel="Keep it suppressed"
      onConfirm={lift}
      onClose={onClose}
    >
      <p className="confirm-dialog-target">{suppression?.email}</p>
      <p>Insight and other mail will be sent to this address again, from the next message on.</p>
      {suppression ? <p>{CAUTIONS[suppression.reason]}</p> : null}
    </ConfirmDialog>
  );
}
