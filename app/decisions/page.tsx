import type { Metadata } from "next";
import Link from "next/link";
import { can } from "@/lib/auth/permissions";
import { decisionListFilterSchema, type DecisionListFilter } from "@/lib/schemas/decision";
import { listDecisions } from "@/lib/server/decisions/decisions";
import { requirePagePermission } from "@/lib/server/session";
import { StatusBadge } from "@/components/decisions/status-badge";
import { formatPercent, formatUtc } from "@/lib/format";

export const metadata: Metadata = { title: "Decisions" };

const FILTER_LABELS: Record<DecisionListFilter, string> = {
  ACTIVE: "All but archived",
  DRAFT: "Draft",
  IN_REVIEW: "In review",
  CHANGES_REQUESTED: "Changes requested",
  APPROVED: "Approved",
  REJECTED: "Rejected",
  ARCHIVED: "Archived",
  ALL: "All, archived included",
};

export default async function DecisionsPage({ searchParams }: { searchParams: Promise<{ status?: string }> }) {
  const actor = await requirePagePermission("decision.read", "/decisions");
  const filter = decisionListFilterSchema.parse((await searchParams).status?.toUpperCase() ?? "ACTIVE");
  const decisions = await listDecisions(actor, filter);
  const mayCreate = can(actor, "decision.edit");
  return (
    <>
      <div className="page-heading">
        <h1>Decisions</h1>
        {mayCreate && (
          <Link className="button" href="/decisions/new">
            New decision
          </Link>
        )}
      </div>
      <p className="muted">
        Each decision chooses one model for one task, on the buyer&apos;s own data, class balance and costs.
      </p>
      <form method="get" className="filters" aria-label="Filter decisions">
        <label>
          Status{" "}
          <select name="status" defaultValue={filter}>
            {Object.entries(FILTER_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>{" "}
        <button type="submit" className="secondary">
          Show
        </button>
      </form>
      {decisions.length === 0 ? (
        <div className="card" role="status">
          {filter !== "ACTIVE" ? (
            <p>
              No decision is {FILTER_LABELS[filter].toLowerCase()}.{" "}
              <Link href="/decisions">Show every decision but the archived ones.</Link>
            </p>
          ) : mayCreate ? (
            <>
              <p>
                <strong>No decisions yet.</strong> Start with <Link href="/decisions/new">New decision</Link>: set the
                task&apos;s positive class, its prevalence in production, the cost of each error and the serving SLOs.
              </p>
              <p className="muted">
                Then import leaderboards to shortlist candidates, upload your labelled dataset and each candidate&apos;s
                predictions and serving benchmark, and submit the pack for review.
              </p>
            </>
          ) : (
            <p>
              <strong>No decisions yet.</strong> An analyst creates a decision and gathers its evidence; it appears here
              for you to review once it exists.
            </p>
          )}
        </div>
      ) : (
        <table>
          <caption>
            {decisions.length} decision{decisions.length === 1 ? "" : "s"} — {FILTER_LABELS[filter].toLowerCase()}
          </caption>
          <thead>
            <tr>
              <th scope="col">Decision</th>
              <th scope="col">Positive class</th>
              <th scope="col" className="num">
                Prevalence π
              </th>
              <th scope="col" className="num">
                Candidates
              </th>
              <th scope="col">Status</th>
              <th scope="col">Updated (UTC)</th>
            </tr>
          </thead>
          <tbody>
            {decisions.map((d) => (
              <tr key={d.id}>
                <td>
                  <Link href={`/decisions/${d.id}`}>{d.title}</Link>
                </td>
                <td>{d.positiveClass}</td>
                <td className="num">{formatPercent(d.prevalence)}</td>
                <td className="num">{d._count.candidates}</td>
                <td>
                  <StatusBadge status={d.status} />
                  {d.archivedAt && <span className="badge badge-no">Archived</span>}
                </td>
                <td>{formatUtc(d.updatedAt, "day", false)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
