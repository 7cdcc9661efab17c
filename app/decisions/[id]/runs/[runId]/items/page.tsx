import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { drillDownHref, type DrillQueryInput } from "@/lib/schemas/drill-down";
import { AppError, fieldProblems, type FieldProblem } from "@/lib/server/errors";
import { listRunItems, type DrillPage } from "@/lib/server/pack/drill-down";
import { requirePagePermission } from "@/lib/server/session";
import { ItemsTable } from "@/components/drill-down/items-table";
import { DrillError, DrillFilter, DrillPager, DrillSummary } from "./sections";
import "./drill.css";

export const metadata: Metadata = { title: "Items behind a figure" };

type Search = Promise<Record<string, string | string[] | undefined>>;
const FILTER_KEYS = ["cell", "threshold", "slice", "vs", "after", "before", "limit"] as const;

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
  if (!page) return <DrillError id={id} runId={runId} run={run} message={message} problems={problems} />;
  const pack = `/decisions/${encodeURIComponent(id)}`;
  const csv = new URLSearchParams(
    Object.entries({ ...query, after: undefined, before: undefined, limit: undefined, format: "csv" }).filter(
      (e): e is [string, string] => e[1] !== undefined,
    ),
  );
  return (
    <article aria-labelledby="drill-title">
      <p>
        <Link href={pack}>← {page.run.decisionTitle}</Link>
      </p>
      <h1 id="drill-title">
        Items of {page.run.candidate}&apos;s run #{page.run.runId}
      </h1>
      <DrillSummary page={page} />
      {"provenance" in page.run && page.run.provenance && (
        <p data-testid="drill-provenance">
          {page.run.provenance.line}
          <small className="block muted">{page.run.provenance.mapping}</small>
        </p>
      )}
      <p className="muted">
        Predicted positive ⇔ score ≥ t. Parse failures and missing predictions count as errors (the wrong class), as in
        the pack&apos;s figures.
        {page.run.scoreKind === "hard-labels" &&
          " This run gave hard labels only: its items are listed by their predicted label."}
      </p>
      <DrillFilter id={id} page={page} query={query} />
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
      <DrillPager id={id} page={page} query={query} />
    </article>
  );
}
