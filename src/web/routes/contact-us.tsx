import type { MetaFunction } from "react-router";
import { ROUTES } from "../../shared/routes.ts";
import { SITE } from "../../shared/site.ts";
import { InquiryForm } from "../features/contact/InquiryForm.tsx";
import { routeMeta } from "../lib/seo.ts";

export const meta: MetaFunction = ({ matches }) => routeMeta(ROUTES.contactUs, matches);

export default function ContactUsPage() {
  return (
    <section className="section section--warm">
      <div className="container contact">
        <div>
          <p className="eyebrow">Contact Us</p>
          <h1 id="contact-title">Learn More</h1>
          <p className="lede">{SITE.contactInvitation}</p>
          <p>
            Prefer e-mail? Write to <a href={`mailto:${SITE.contactEmail}`}>{SITE.contactEmail}</a>.
          </p>
        </div>
        <InquiryForm />
      </div>
    </section>
  );
}
