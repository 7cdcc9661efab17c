import Link from "next/link";

export default function Forbidden() {
  return (
    <section className="card">
      <h1>403 — Not permitted</h1>
      <p>Your roles do not allow this page. Ask an administrator if you need access.</p>
      <Link href="/">Back to Verdict</Link>
    </section>
  );
}
