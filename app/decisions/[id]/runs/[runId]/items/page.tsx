import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { CELL_FILTERS, drillDownHref, type DrillQueryInput } from "@/lib/schemas/drill-down";
import { AppError, fieldProblems, type FieldProblem } from "@/lib/server/errors";
import { listRunItems, NO_SLICE, type DrillPage } from "@/lib/server/pack/drill-down";
import { requirePagePermission } from "@/lib/server/session";
import { ItemsTable } from "@/components/drill-down/items-table";
import "./drill.css";

export const metadata: Metadata = { title: "Items behind a figure" };

type Search = Promise<Record<string, string | string[] | undefined>>;
const FILTER_KEYS = ["cell", "threshold", "slice", "vs", "after", "before", "limit"] as const;

const CELL_LABELS: Record<(typeof CELL_FILTERS)[number], string> = {
  all: "All items (errors first)",
  errors: "Errors (FN, then FP)",
  FN: "False negatives (FN)",
  FP: "False positives (FP)",
  TP: "True positives (TP)",
  TN: "True negatives (TN)",
};

/**
 * The drill-down page: a run's items in a cell, slice or operating point of the pack, paged by
 * keyset cursors (lib/server/pack/drill-down.ts, the code behind the API and the CLI). The filter
 * is a GET form: a blank field means "not given" (the run's own threshold, every slice…).
 */
export default async function DrillDownPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string; runId: string }>;
  searchParams: Search;
}) {
  const { id, runId } = await params;
  const q = await searchParams;
  const query: DrillQueryInput = {};
  for (const key of FILTER_KEYS) {
    const value = Array.isArray(q[key]) ? q[key][0] : q[key];
    if (value !== undefined && value !== "") query[key] = value;
  }
  const run = /^\d+$/.test(runId) ? Number(runId) : NaN;
  const actor = await requirePagePermission("decision.read", drillDownHref(id, Number.isFinite(run) ? run : 0));
  let page: DrillPage | null = null;
  let problems: FieldProblem[] = [];
  let message: string | null = null;
  try {
    page = await listRunItems(actor, id, run, query);
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    if (error instanceof z.ZodError) problems = fieldProblems(error);
    else if (error instanceof AppError && (error.code === "VALIDATION" || error.code === "CONFLICT")) {
      problems = (error.details as { issues?: FieldProblem[] } | undefined)?.issues ?? [];
      message = problems.length ? null : error.message;
    } else throw error;
  }
  const pack = `/decisions/${encodeURIComponent(id)}`;
  if (!page) {
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
  const { filter } = page;
  const keep = {
    cell: query.cell as (typeof CELL_FILTERS)[number] | undefined,
    threshold: query.threshold !== undefined ? Number(query.threshold) : undefined,
    slice: query.slice,
    vs: query.vs !== undefined ? Number(query.vs) : undefined,
    limit: query.limit !== undefined ? Number(query.limit) : undefined,
  };
  const csv = new URLSearchParams(
    Object.entries({ ...query, after: undefined, before: undefined, limit: undefined, format: "csv" }).filter(
      (e): e is [string, string] => e[1] !== undefined,
    ),
  );
  const thresholdNote =
    filter.threshold === page.run.operatingThreshold
      ? "the run's operating threshold"
      : `an operating point (the run's threshold is ${page.run.operatingThreshold})`;
  return (
    <article aria-labelledby="drill-title">
      <p>
        <Link href={pack}>← {page.run.decisionTitle}</Link>
      </p>
      <h1 id="drill-title">
        Items of {page.run.candidate}&apos;s run #{page.run.runId}
      </h1>
      <p data-testid="drill-summary">
        {CELL_LABELS[filter.cell]} at t = {filter.threshold} ({thresholdNote})
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
      <p className="muted">
        Predicted positive ⇔ score ≥ t. Parse failures and missing predictions count as errors (the wrong class), as in
        the pack&apos;s figures.
        {page.run.scoreKind === "hard-labels" &&
          " This run gave hard labels only: its items are listed by their predicted label."}
      </p>
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
      {!page.run.countsInPack && (
        <p className="message-warn" role="note">
          This run is not its candidate&apos;s run that counts: it is compared with no other run.
        </p>
      )}
      <p>
        <a
          href={`/api/v1/decisions/${encodeURIComponent(id)}/runs/${page.run.runId}/items?${csv.toString()}`}
          download
          data-testid="drill-csv"
        >
          Download CSV
        </a>{" "}
        <span className="muted">(every item of this list)</span>
      </p>
      <ItemsTable items={page.items} positiveClass={page.run.positiveClass} />
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
    </article>
  );
}
