import { formatUtc } from "@/lib/format";
import type { AuditRowView } from "@/lib/views/audit";

const json = (v: unknown) => (v === null || v === undefined ? "—" : JSON.stringify(v, null, 1));

/** The audit trail, newest first: who (with their roles then), what, on which entity, before and after, when, from where. */
export function AuditTable({ events }: { events: AuditRowView[] }) {
  if (events.length === 0) return <p className="muted">No events match.</p>;
  return (
    <table style={{ fontSize: "0.85rem" }}>
      <caption>Audit events</caption>
      <thead>
        <tr>
          <th scope="col" className="num">
            #
          </th>
          <th scope="col">Time (UTC)</th>
          <th scope="col">Actor</th>
          <th scope="col">Action</th>
          <th scope="col">Entity</th>
          <th scope="col">Before → after</th>
          <th scope="col">Request</th>
          <th scope="col">Hash</th>
        </tr>
      </thead>
      <tbody>
        {events.map((e) => (
          <tr key={e.id} data-testid="audit-row">
            <td className="num">{e.id}</td>
            <td className="figure">{formatUtc(e.createdAt, "millisecond", false)}</td>
            <td>
              {e.actorName}
              <small className="muted" style={{ display: "block" }}>
                {e.actorRoles.map((r) => r.toLowerCase()).join(", ") || "no role"}
              </small>
            </td>
            <td>
              <code>{e.action}</code>
            </td>
            <td>
              {e.entityType}
              <small className="muted" style={{ display: "block", wordBreak: "break-all" }}>
                {e.entityId}
              </small>
            </td>
            <td>
              <details>
                <summary>show</summary>
                <pre style={{ whiteSpace: "pre-wrap", wordBreak: "break-all", maxWidth: 420 }}>
                  {json(e.before)}
                  {"\n→\n"}
                  {json(e.after)}
                </pre>
              </details>
            </td>
            <td>
              <small>{e.ip ?? "—"}</small>
              <small
                className="muted"
                style={{
                  display: "block",
                  maxWidth: 200,
                  overflow: "hidden",
                  textOverflow: "ellipsis",
                  whiteSpace: "nowrap",
                }}
                title={e.userAgent ?? ""}
              >
                {e.userAgent ?? ""}
              </small>
            </td>
            <td>
              <code title={`prev ${e.prevHash}`} style={{ fontSize: "0.75rem" }}>
                {e.hash.slice(0, 16)}…
              </code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
