"use client";

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <section className="card" role="alert">
      <h1>Something went wrong</h1>
      <p>The page could not be shown. {error.digest ? `Reference: ${error.digest}.` : ""}</p>
      <button type="button" onClick={reset}>
        Try again
      </button>
    </section>
  );
}
