import type { Metadata } from "next";
import Link from "next/link";
import { AUDIT_ACTIONS } from "@/lib/audit-actions";
import { parseHead, verifyAuditChain, type ChainHead } from "@/lib/server/audit/verify";
import { requirePagePermission } from "@/lib/server/session";
import { listAuditEvents } from "@/lib/server/audit/list";
import { AuditTable } from "@/components/audit/audit-table";
import { VerifyResult } from "@/components/audit/verify-result";

export const metadata: Metadata = { title: "Audit trail" };

type Search = Promise<Record<string, string | string[] | undefined>>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

/** The audit trail for the whole app or one decision (?decision=ID), filtered; "Verify" recomputes the chain (a read: GET). */
export default async function AuditPage({ searchParams }: { searchParams: Search }) {
  const q = await searchParams;
  const decision = one(q.decision);
  const action = one(q.action);
  const actorId = one(q.actor);
  const head = one(q.head).trim();
  let anchor: ChainHead | null = null;
  let headError: string | null = null;
  try {
    anchor = head ? parseHead(head) : null;
  } catch (error) {
    headError = (error as Error).message;
  }
  const before = one(q.before);
  const returnTo = `/audit${decision ? `?decision=${encodeURIComponent(decision)}` : ""}`;
  const actor = await requirePagePermission("audit.read", returnTo);
  const [list, verification] = await Promise.all([
    listAuditEvents(actor, { decisionId: decision, action, actorId, before }),
    one(q.verify) === "1" && !headError ? verifyAuditChain(actor, anchor) : Promise.resolve(null),
  ]);
  const params = (extra: Record<string, string>) => {
    const p = new URLSearchParams(
      Object.entries({ decision, action, actor: actorId, ...extra }).filter(([, v]) => v) as [string, string][],
    );
    return `/audit?${p.toString()}`;
  };

  return (
    <article aria-labelledby="audit-title">
      <h1 id="audit-title">Audit trail{decision ? ` — decision ${decision}` : ""}</h1>
      <p className="muted">
        Append-only and hash-chained: each event&apos;s hash covers the previous hash and the event&apos;s canonical
        JSON. The database refuses edits and deletions; verifying recomputes every hash from the stored rows, so a
        change made behind the database&apos;s back shows as a broken link.
      </p>
      <form
        method="get"
        action="/audit"
        className="card"
        style={{ display: "flex", gap: 12, flexWrap: "wrap", alignItems: "end" }}
        aria-label="Filter the audit trail"
      >
        <label>
          Decision id
          <input name="decision" defaultValue={decision} />
        </label>
        <label>
          Action
          <select name="action" defaultValue={action}>
            <option value="">any</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <label>
          Actor (user id)
          <input name="actor" defaultValue={actorId} />
        </label>
        <label>
          Earlier head (optional)
          <input name="head" defaultValue={head} placeholder="seq:hash from an export" aria-describedby="head-help" />
        </label>
        <button type="submit" className="secondary">
          Filter
        </button>
        <button type="submit" name="verify" value="1">
          Verify the chain
        </button>
      </form>
      <p id="head-help" className="muted" style={{ fontSize: "0.85rem" }}>
        Verifying also checks every signature and pack revision against the event that recorded it. Deleted newest
        events break no link: give a head printed earlier (every export prints one, as does{" "}
        <code>npx verdict audit head</code>) to detect them.
      </p>
      {headError && (
        <p className="message-error" role="alert">
          {headError}
        </p>
      )}
      {verification && <VerifyResult result={verification} />}
      {decision && (
        <p>
          <Link href={`/decisions/${encodeURIComponent(decision)}/review`}>Review and sign-off of this decision</Link>
        </p>
      )}
      <AuditTable events={list.events} />
      {list.nextBefore && (
        <p>
          <Link href={params({ before: list.nextBefore })}>Older events</Link>
        </p>
      )}
    </article>
  );
}
