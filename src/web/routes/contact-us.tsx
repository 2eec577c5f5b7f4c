export default function ContactUsPage() {
  return <h1>Learn More</h1>;
}
