/**
 * The Insight subscribe form: the address is checked with the shared
 * rule before sending (an address the browser accepts and the server would
 * refuse is marked under the field, and nothing is sent); then submitting
 * (spinner, cannot be pressed twice), then Subscribe again; the outcome is
 * shown in a dialog, and a reason the server gives for the address under the
 * field too.
 *
 * On the /subscribe page it also offers the topics the firm names, each a
 * box to tick (none ticked is none chosen).
 *
 * Without JavaScript the form posts to /subscribe (method="post", with the
 * server's token in a hidden field), a page that shows the form again with
 * the outcome at its top (`posted`, from that route's action).
 */
import { useState } from "react";
import { DIALOG, FORM_TEXTS } from "../../../shared/constants.ts";
import { checkField, type FieldReasons } from "../../../shared/field-rules.ts";
import { type CaptchaWidget, FORM_TOKEN_FIELD } from "../../../shared/page-context.ts";
import { PRIVACY_LINES, SUBSCRIBE_PATH } from "../../../shared/routes.ts";
import {
  EMAIL_MAX_LENGTH,
  SUBSCRIBE_EMAIL_FIELD,
  SUBSCRIBE_EMAIL_RULE,
  TOPIC_BOX_PREFIX,
  TOPICS_LEGEND,
  type Topic,
  tickedTopics,
  topicIdsOf,
} from "../../../shared/subscription.ts";
import { fieldReasonsOf, subscribe } from "../../api/client.ts";
import { FieldError, invalidProps } from "../../components/FieldError.tsx";
import { FormDefences } from "../../components/FormDefences.tsx";
import { FormStatus, type FormStatusProps } from "../../components/FormStatus.tsx";
import { PrivacyNote } from "../../components/PrivacyNote.tsx";
import { SourceField } from "../../components/SourceField.tsx";
import { SubmitButton } from "../../components/SubmitButton.tsx";
import { formDefenceOf, resetCaptcha, useCaptcha } from "../../hooks/use-form-defence.ts";
import {
  type SubmissionOutcome,
  useFormSubmission,
  useFormToken,
} from "../../hooks/use-form-submission.ts";
import type { SubscribePostResult } from "./subscribe-post.ts";

const emailOf = (form: HTMLFormElement) =>
  String(new FormData(form).get(SUBSCRIBE_EMAIL_FIELD) ?? "");

/** The topics ticked, as the call sends them: ids parted by commas. */
const topicsOf = (form: HTMLFormElement) => tickedTopics(new FormData(form));

function checkAddress(form: HTMLFormElement): FieldReasons {
  const reason = checkField(SUBSCRIBE_EMAIL_RULE, emailOf(form));
  return reason ? { [SUBSCRIBE_EMAIL_FIELD]: reason } : {};
}

/** A success: done, or (double opt-in) done once the e-mailed link is followed. */
const subscribedStatus = (confirmationAsked: boolean) =>
  ({
    ok: true,
    title: DIALOG.successTitle,
    text: confirmationAsked ? DIALOG.checkInbox : DIALOG.subscribed,
  }) as const;

async function subscribeWith(
  form: HTMLFormElement,
  captcha: CaptchaWidget | null,
): Promise<SubmissionOutcome> {
  try {
    const response = await subscribe(emailOf(form), formDefenceOf(form, captcha), topicsOf(form));
    resetCaptcha();
    if (response.status === 201) {
      return subscribedStatus(response.data?.confirmationAsked === true);
    }
    if (response.status === 409 && response.data?.message) {
      return { ok: false, title: DIALOG.failureTitle, text: response.data.message };
    }
    return {
      ok: false,
      title: DIALOG.failureTitle,
      text: DIALOG.somethingWrong,
      fields: fieldReasonsOf(response),
    };
  } catch {
    // A network failure is reported like any other failure below.
  }
  return { ok: false, title: DIALOG.failureTitle, text: DIALOG.somethingWrong };
}

/** What the page shows at the top of the form after a post without JavaScript. */
function statusOf(served: SubscribePostResult): FormStatusProps {
  switch (served.state) {
    case "subscribed":
      return subscribedStatus(served.confirmationAsked);
    case "already":
      return { ok: false, title: DIALOG.failureTitle, text: served.message };
    case "invalid":
      return {
        ok: false,
        title: DIALOG.failureTitle,
        text: DIALOG.somethingWrong,
        detail: FORM_TEXTS.checkFields,
      };
    case "refused":
      return {
        ok: false,
        title: DIALOG.failureTitle,
        text: DIALOG.somethingWrong,
        detail: served.message,
      };
    case "failed":
      return { ok: false, title: DIALOG.failureTitle, text: DIALOG.somethingWrong };
  }
}

interface SubscribeFormProps {
  /** "footer" (every page, on night) or "page" (the /subscribe page, on paper). */
  variant?: "footer" | "page";
  /** The outcome of a post without JavaScript, on the /subscribe page. */
  posted?: SubscribePostResult | undefined;
  /** The topics to choose from (the /subscribe page, when the firm offers some). */
  topics?: readonly Topic[];
}

export function SubscribeForm({ variant = "footer", posted, topics = [] }: SubscribeFormProps) {
  // As in the inquiry form: a rendered outcome goes once the form is sent again.
  const [served, setServed] = useState(posted);
  const captcha = useCaptcha();
  const send = (form: HTMLFormElement) => subscribeWith(form, captcha);
  const { submitting, button, onSubmit, onInput, errors } = useFormSubmission(send, {
    check: checkAddress,
    initialErrors: served?.state === "invalid" ? served.fields : undefined,
  });
  const token = useFormToken();
  const inputId = variant === "footer" ? "subscribe-email" : "subscribe-page-email";
  const reason = errors[SUBSCRIBE_EMAIL_FIELD];
  const value = served && served.state !== "subscribed" ? served.email : "";
  const ticked = new Set(
    served && served.state !== "subscribed" ? (topicIdsOf(served.topics) ?? []) : [],
  );

  return (
    <form
      className={`subscribe subscribe--${variant}`}
      method="post"
      action={SUBSCRIBE_PATH}
      onSubmit={(event) => {
        setServed(undefined);
        void onSubmit(event);
      }}
      onInput={onInput}
      // The footer's form is a landmark of every page; the one on /subscribe sits
      // under the page's heading, and naming it too would repeat that landmark.
      aria-label={variant === "footer" ? "Subscribe to Insight" : undefined}
    >
      {served ? <FormStatus {...statusOf(served)} /> : null}
      <input type="hidden" name={FORM_TOKEN_FIELD} value={token} />
      <SourceField served={served} />
      <label
        className={variant === "footer" ? "visually-hidden" : "subscribe__label"}
        htmlFor={inputId}
      >
        {SUBSCRIBE_EMAIL_RULE.label}
      </label>
      <div className="subscribe__field">
        <input
          id={inputId}
          name={SUBSCRIBE_EMAIL_FIELD}
          type="email"
          required
          maxLength={EMAIL_MAX_LENGTH}
          autoComplete="email"
          placeholder="Your email address"
          defaultValue={value}
          className="subscribe__input"
          {...invalidProps(inputId, reason)}
        />
        <FieldError controlId={inputId} label={SUBSCRIBE_EMAIL_RULE.label} reason={reason} />
      </div>
      {topics.length > 0 ? (
        <fieldset className="subscribe__topics">
          <legend>{TOPICS_LEGEND}</legend>
          {topics.map((topic) => (
            <label key={topic.id} className="subscribe__topic">
              <input
                type="checkbox"
                name={`${TOPIC_BOX_PREFIX}${topic.id}`}
                defaultChecked={ticked.has(topic.id)}
              />
              <span>{topic.name}</span>
            </label>
          ))}
        </fieldset>
      ) : null}
      <FormDefences idPrefix={inputId} errors={errors} />
      <SubmitButton
        ref={button}
        busy={submitting}
        busyLabel="Subscribing"
        className="subscribe__button"
      >
        Subscribe
      </SubmitButton>
      <PrivacyNote>{PRIVACY_LINES.subscription}</PrivacyNote>
    </form>
  );
}
