/**
 * Erasing a person's data from the console: the owner types the person's
 * address once more, and both the form and the server compare it with the
 * one shown, so no click and no request by id alone erases anyone.
 */
import { z } from "zod";
import { ruledText } from "../schemas.ts";
import { EMAIL_MAX_LENGTH } from "../subscription.ts";

export const ERASURE_TEXTS = {
  confirmMismatch: "Type the address exactly as shown above to confirm.",
} as const;

export const confirmAddressSchema = z.object({
  email: ruledText("text")
    .trim()
    .toLowerCase()
    .min(1, "Type the address to confirm.")
    .max(EMAIL_MAX_LENGTH),
});
export type ConfirmAddress = z.infer<typeof confirmAddressSchema>;

/** The schema the console's form checks: the typed address must be `email`. */
export function confirmingAddress(email: string) {
  return confirmAddressSchema.refine((value) => value.email === email.toLowerCase(), {
    message: ERASURE_TEXTS.confirmMismatch,
    path: ["email"],
  });
}
