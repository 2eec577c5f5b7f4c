/**
 * The subscribe form posted without JavaScript: /subscribe's action reads the
 * address and the topics ticked, and subscribes it through the server's forms service
 * (shared/page-context.ts), which checks it with the API's schema (the shared
 * field rule) and writes as the API does. What it returns is what the page
 * then shows (SubscribeForm's `posted`).
 */
import type { FieldReasons } from "../../../shared/field-rules.ts";
import type { LeadSource } from "../../../shared/lead-source.ts";
import type { FormService } from "../../../shared/page-context.ts";
import { SUBSCRIBE_EMAIL_FIELD, tickedTopics } from "../../../shared/subscription.ts";

/** The outcome of a post, and the address to show again when it was not subscribed. */
export type SubscribePostResult =
  | { state: "subscribed"; confirmationAsked: boolean }
  // The topics ticked go back with the address, so the form shows them ticked again.
  | ({ topics: string } & (
      | { state: "already"; email: string; message: string }
      // With the lead source the server took for the post, for the form to carry.
      | ({ source?: LeadSource | undefined } & (
          | { state: "invalid"; email: string; fields: FieldReasons }
          | { state: "refused"; email: string; message: string }
          | { state: "failed"; email: string }
        ))
    ));

export async function answerSubscribePost(
  request: Request,
  forms: FormService | undefined,
): Promise<{ result: SubscribePostResult; status: number }> {
  const form = await request.formData();
  const given = form.get(SUBSCRIBE_EMAIL_FIELD);
  const email = typeof given === "string" ? given : "";
  // Each ticked topic is a field of its own; the service takes them as one list.
  const topics = tickedTopics(form);
  if (!forms) return { result: { state: "failed", email, topics }, status: 503 };
  const { source } = forms;
  if (forms.refusal) {
    return {
      result: { state: "refused", email, topics, message: forms.refusal, source },
      status: 403,
    };
  }
  try {
    const written = await forms.subscribe(email, topics);
    if (written.outcome === "invalid") {
      return {
        result: { state: "invalid", email, topics, fields: written.fields, source },
        status: 400,
      };
    }
    if (written.outcome === "already") {
      return { result: { state: "already", email, topics, message: written.message }, status: 409 };
    }
    return {
      result: { state: "subscribed", confirmationAsked: written.confirmationAsked },
      status: 201,
    };
  } catch {
    // The server has logged the failure.
    return { result: { state: "failed", email, topics, source }, status: 500 };
  }
}
