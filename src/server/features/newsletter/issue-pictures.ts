/**
 * An issue's pictures as its e-mail shows them: each uploaded picture's JPEG
 * or PNG copy (mail-copy.ts), which every mail program shows, at its real
 * size. The archive page keeps the WebP the Markdown names. A picture
 * inserted before pictures had mail copies gets its copy here, the first
 * time an e-mail shows it.
 */
import { absoluteUrl, type EmailImage, imagesOf } from "../../platform/markdown/markdown.ts";
import { findOrMakeMailCopy } from "../../platform/media/mail-copy.ts";
import { type IssueSource, issueUrlOf } from "./render.ts";

/**
 * An uploaded picture the site serves to mail programs (media/files.ts):
 * insight/ for pictures inserted now, items/ for those inserted before
 * issues had a folder of their own.
 */
const UPLOADED_PICTURE = /^\/images\/(insight|items)\/([0-9a-f]{24})\.(?:webp|avif)$/;

async function mailCopyOf(
  address: string,
  { origin, mediaDir }: { origin: string; mediaDir: string },
): Promise<EmailImage | undefined> {
  if (!URL.canParse(address)) return undefined;
  const url = new URL(address);
  if (url.origin !== new URL(origin).origin || url.search || url.hash) return undefined;
  const [, folder, name] = UPLOADED_PICTURE.exec(url.pathname) ?? [];
  if ((folder !== "insight" && folder !== "items") || !name) return undefined;
  try {
    const copy = await findOrMakeMailCopy(mediaDir, folder, name);
    if (!copy) return undefined;
    const src = new URL(`/images/${folder}/${copy.file}`, origin).href;
    return { src, width: copy.width, height: copy.height };
  } catch {
    // A picture whose file cannot be read is left as the Markdown names it:
    // the e-mail still goes, and a program that cannot show it shows its
    // description.
    return undefined;
  }
}

/** The e-mail's file and size of each uploaded picture in the issue, by its absolute address. */
export async function emailPicturesOf(
  issue: Pick<IssueSource, "slug" | "body">,
  options: { origin: string; mediaDir: string },
): Promise<Map<string, EmailImage>> {
  const pageUrl = issueUrlOf(issue.slug, options.origin);
  const pictures = new Map<string, EmailImage>();
  for (const { src } of imagesOf(issue.body)) {
    const address = absoluteUrl(src, pageUrl);
    if (pictures.has(address)) continue;
    const picture = await mailCopyOf(address, options);
    if (picture) pictures.set(address, picture);
  }
  return pictures;
}
