import { type ActionFunctionArgs, data, type MetaFunction, useActionData } from "react-router";
import { ROUTES } from "../../shared/routes.ts";
import { InquiryForm } from "../features/contact/InquiryForm.tsx";
import { answerInquiryPost } from "../features/contact/inquiry-post.ts";
import { useSiteFacts } from "../hooks/use-site-facts.ts";
import { routeMeta } from "../lib/seo.ts";

export const meta: MetaFunction = ({ matches }) => routeMeta(ROUTES.contactUs, matches);

/**
 * The inquiry form posted without JavaScript (with JavaScript the form calls
 * the API and this never runs): on the server only, through the load
 * context's forms service.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { result, status } = await answerInquiryPost(request, context.forms);
  return data(result, { status });
}

export default function ContactUsPage() {
  const posted = useActionData<typeof action>();
  const { contactInvitation, contactEmail } = useSiteFacts();
  return (
    <section className="section section--warm">
      <div className="container contact">
        <div>
          <p className="eyebrow">Contact Us</p>
          <h1 id="contact-title">Learn More</h1>
          <p className="lede">{contactInvitation}</p>
          <p>
            Prefer e-mail? Write to <a href={`mailto:${contactEmail}`}>{contactEmail}</a>.
          </p>
        </div>
        <InquiryForm posted={posted} />
      </div>
    </section>
  );
}
