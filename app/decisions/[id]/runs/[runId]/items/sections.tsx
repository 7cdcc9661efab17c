import Link from "next/link";
import { formatThreshold } from "@/lib/format";
import { CELL_FILTERS, drillDownHref, type DrillQueryInput } from "@/lib/schemas/drill-down";
import type { FieldProblem } from "@/lib/server/errors";
import { NO_SLICE, type DrillPage } from "@/lib/server/pack/drill-down";

const CELL_LABELS: Record<(typeof CELL_FILTERS)[number], string> = {
  all: "All items (errors first)",
  errors: "Errors (FN, then FP)",
  FN: "False negatives (FN)",
  FP: "False positives (FP)",
  TP: "True positives (TP)",
  TN: "True negatives (TN)",
};

/** The page when the filter is refused: what is wrong with it, and the way back to every item. */
export function DrillError({
  id,
  runId,
  run,
  message,
  problems,
}: {
  id: string;
  runId: string;
  run: number;
  message: string | null;
  problems: FieldProblem[];
}) {
  const pack = `/decisions/${encodeURIComponent(id)}`;
  return (
    <article aria-labelledby="drill-title">
      <p>
        <Link href={pack}>← Evidence pack</Link>
      </p>
      <h1 id="drill-title">Items of run #{runId}</h1>
      <div className="message-error" role="alert" data-testid="drill-error">
        {message && <p>{message}</p>}
        {problems.length > 0 && (
          <ul>
            {problems.map((p) => (
              <li key={p.field + p.reason}>
                <strong>{p.field}</strong>: {p.reason}
              </li>
            ))}
          </ul>
        )}
      </div>
      <p>
        <Link href={drillDownHref(id, run)}>Show all items of this run</Link>
      </p>
    </article>
  );
}

/** Which items the list holds: the cell at which threshold, the slice, the comparison, the dataset. */
export function DrillSummary({ page }: { page: DrillPage }) {
  const { filter } = page;
  const thresholdNote =
    filter.threshold === page.run.operatingThreshold
      ? "the run's operating threshold"
      : `an operating point (the run's threshold is ${formatThreshold(page.run.operatingThreshold)})`;
  return (
    <p data-testid="drill-summary">
      {CELL_LABELS[filter.cell]} at t = {formatThreshold(filter.threshold)} ({thresholdNote})
      {filter.slice !== null && (
        <>
          {" "}
          in slice <strong>{filter.slice}</strong>
        </>
      )}
      {filter.vsCandidate && (
        <>
          {" "}
          — only the errors {page.run.candidate} makes and {filter.vsCandidate} does not
        </>
      )}{" "}
      on dataset <strong>{page.run.dataset.name}</strong> v{page.run.dataset.version}.
      {page.total !== null && (
        <>
          {" "}
          <strong data-testid="drill-total">{page.total.toLocaleString("en-US")}</strong> items.
        </>
      )}
    </p>
  );
}

/** The GET form that filters the items: a blank field means "not given". */
export function DrillFilter({ id, page, query }: { id: string; page: DrillPage; query: DrillQueryInput }) {
  const { filter } = page;
  return (
    <form
      method="get"
      action={drillDownHref(id, page.run.runId)}
      className="card inline-form"
      aria-label="Filter the items"
    >
      <label>
        Cell
        <select name="cell" defaultValue={query.cell ?? ""}>
          <option value="">{filter.vs ? "Errors (FN, then FP)" : "All items (errors first)"}</option>
          {CELL_FILTERS.filter((c) => c !== "all").map((c) => (
            <option key={c} value={c}>
              {CELL_LABELS[c]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Threshold t
        <input
          name="threshold"
          type="number"
          step="any"
          defaultValue={query.threshold ?? ""}
          placeholder={String(page.run.operatingThreshold)}
        />
      </label>
      <label>
        Slice
        <select name="slice" defaultValue={query.slice ?? ""}>
          <option value="">every slice</option>
          {[...new Set([...page.slices, ...(query.slice ? [query.slice] : [])])].map((s) => (
            <option key={s} value={s}>
              {s === NO_SLICE ? "items without a slice" : s}
            </option>
          ))}
        </select>
      </label>
      {page.compareWith.length > 0 && (
        <label>
          Only errors this candidate makes vs
          <select name="vs" defaultValue={query.vs ?? ""}>
            <option value="">—</option>
            {page.compareWith.map((r) => (
              <option key={r.runId} value={r.runId}>
                {r.candidate} (run #{r.runId})
              </option>
            ))}
          </select>
        </label>
      )}
      <button type="submit" className="secondary">
        Show
      </button>
    </form>
  );
}

/** Previous and next pages by keyset cursor, keeping the filter. */
export function DrillPager({ id, page, query }: { id: string; page: DrillPage; query: DrillQueryInput }) {
  const keep = {
    cell: query.cell as (typeof CELL_FILTERS)[number] | undefined,
    threshold: query.threshold !== undefined ? Number(query.threshold) : undefined,
    slice: query.slice,
    vs: query.vs !== undefined ? Number(query.vs) : undefined,
    limit: query.limit !== undefined ? Number(query.limit) : undefined,
  };
  return (
    <nav aria-label="Pages" className="inline-form">
      {page.previous ? (
        <Link href={drillDownHref(id, page.run.runId, { ...keep, before: page.previous })} rel="prev">
          ← Previous
        </Link>
      ) : (
        <span className="muted">← Previous</span>
      )}
      {page.next ? (
        <Link href={drillDownHref(id, page.run.runId, { ...keep, after: page.next })} rel="next">
          Next →
        </Link>
      ) : (
        <span className="muted">Next →</span>
      )}
    </nav>
  );
}
