import type { Metadata } from "next";
import Link from "next/link";
import { listDecisions } from "@/lib/server/decisions";
import { requirePagePermission } from "@/lib/server/session";
import { StatusBadge } from "@/components/decisions/status-badge";
import { formatPercent } from "@/lib/format";

export const metadata: Metadata = { title: "Decisions" };

export default async function DecisionsPage() {
  const actor = await requirePagePermission("decision.read", "/decisions");
  const decisions = await listDecisions(actor);
  return (
    <>
      <h1>Decisions</h1>
      <p className="muted">Each decision chooses one model for one task, on the buyer&apos;s own data, class balance and costs.</p>
      {decisions.length === 0 ? (
        <p className="card">No decisions yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Decision</th>
              <th scope="col">Positive class</th>
              <th scope="col" className="num">Prevalence π</th>
              <th scope="col" className="num">Candidates</th>
              <th scope="col">Status</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {decisions.map((d) => (
              <tr key={d.id}>
                <td><Link href={`/decisions/${d.id}`}>{d.title}</Link></td>
                <td>{d.positiveClass}</td>
                <td className="num">{formatPercent(d.prevalence)}</td>
                <td className="num">{d._count.candidates}</td>
                <td><StatusBadge status={d.status} /></td>
                <td>{d.updatedAt.toISOString().slice(0, 10)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
