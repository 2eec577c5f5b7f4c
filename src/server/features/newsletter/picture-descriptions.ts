/**
 * Every picture in an issue's body says what it shows. The description is
 * all that reaches a reader whose mail program blocks pictures, who listens
 * to the issue through a screen reader, or who reads the text part; a
 * picture without one is a hole in the issue. A save with one is refused,
 * beside the body, saying which picture it is and how to describe it.
 */
import { imagesOf } from "../../platform/markdown/markdown.ts";
import { refuse } from "../../platform/refusal.ts";

const inWords = (numbers: readonly number[]) =>
  new Intl.ListFormat("en-GB", { type: "conjunction" }).format(numbers.map(String));

/** Why the body cannot be saved as it is, or undefined when every picture is described. */
export function undescribedPicturesReason(body: string): string | undefined {
  const pictures = imagesOf(body);
  const undescribed = pictures.flatMap((picture, index) => (picture.alt ? [] : [index + 1]));
  if (undescribed.length === 0) return undefined;
  const which =
    undescribed.length === 1
      ? `Picture ${undescribed[0]} of ${pictures.length} has no description`
      : `Pictures ${inWords(undescribed)} of ${pictures.length} have no description`;
  return `${which}. Write what it shows between the square brackets, as in ![Bars: the cloud bill per quarter](…): it is read out to people who cannot see it, and shown where a mail program blocks pictures.`;
}

/** Refuses a body with a picture without a description (400), the reason beside the body. */
export function requireDescribedPictures(body: string): void {
  const reason = undescribedPicturesReason(body);
  if (reason) throw refuse.badRequest(reason, { body: reason });
}
