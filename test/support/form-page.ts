/**
 * What a browser holds after loading a page with the forms: the XSRF cookie
 * the page set and the signed token in the forms' hidden field (ADR 004), as
 * a form posted without JavaScript sends them back.
 */
import type { FastifyInstance } from "fastify";
import { FORM_TOKEN_FIELD } from "../../src/shared/page-context.ts";

export interface FormPage {
  /** The Cookie header: the page's XSRF-TOKEN. */
  cookie: string;
  /** The value of the forms' hidden token field. */
  token: string;
}

export async function openFormPage(app: FastifyInstance, url = "/contact-us"): Promise<FormPage> {
  const page = await app.inject({ url });
  const issued = page.cookies.find((c) => c.name === "XSRF-TOKEN")?.value;
  const hidden = new RegExp(`name="${FORM_TOKEN_FIELD}" value="([^"]+)"`).exec(page.body)?.[1];
  if (!issued || !hidden) throw new Error(`${url} came without its cookie or its form token`);
  return { cookie: `XSRF-TOKEN=${issued}`, token: hidden };
}
