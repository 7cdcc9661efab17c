import Link from "next/link";

export default function NotFound() {
  return (
    <section className="card">
      <h1>Not found</h1>
      <p>There is nothing at this address.</p>
      <Link href="/">Back to Verdict</Link>
    </section>
  );
}
