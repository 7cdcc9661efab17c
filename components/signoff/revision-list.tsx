import { formatUtc } from "@/lib/format";
import { HASH, type DiffView, type RevisionView } from "./types";
import { TableScroll } from "@/components/ui/table-scroll";

const show = (v: unknown) => {
  if (v === undefined) return "";
  const text = JSON.stringify(v);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
};

export function RevisionDiff({ diff }: { diff: DiffView }) {
  return (
    <TableScroll label="Changes between revisions">
      <table className="diff">
        <caption>
          Changes to{" "}
          {diff.toNumber === "now" ? "the evidence as it is now (not yet frozen)" : `revision ${diff.toNumber}`}:{" "}
          {diff.total} {diff.total === 1 ? "difference" : "differences"}
          {diff.total > diff.entries.length && `, first ${diff.entries.length} shown`}
        </caption>
        <thead>
          <tr>
            <th scope="col">Path</th>
            <th scope="col">Change</th>
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {diff.entries.map((e) => (
            <tr key={`${e.path}-${e.kind}`}>
              <td>
                <code>{e.path}</code>
              </td>
              <td>{e.kind}</td>
              <td>
                <code>{show(e.before)}</code>
              </td>
              <td>
                <code>{show(e.after)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** Pack revisions, newest first; a superseded one carries the diff to what replaced it. */
export function RevisionList({ revisions }: { revisions: RevisionView[] }) {
  if (revisions.length === 0)
    return <p className="muted">No revision yet: submitting for review freezes the first one.</p>;
  return (
    <ul className="revisions" style={{ listStyle: "none", paddingLeft: 0 }}>
      {[...revisions].reverse().map((r) => (
        <li key={r.id} data-testid="revision" style={{ marginBottom: 12 }}>
          <strong>Revision {r.number}</strong>{" "}
          {r.superseded ? (
            <span className="badge badge-no">Superseded</span>
          ) : (
            <span className="badge badge-yes">Current</span>
          )}{" "}
          <span className="muted">
            frozen {formatUtc(r.createdAt, "second")} {r.createdBy ? `by ${r.createdBy.name}` : "by no one in the app"}
            {r.supersededAt ? `, superseded ${formatUtc(r.supersededAt, "second")}` : ""}
          </span>
          {r.cause && (
            <span
              className={r.createdBy ? "muted" : "message-error"}
              data-testid="revision-cause"
              style={{ display: "block" }}
            >
              Cause: {r.cause}
            </span>
          )}
          <code className="hash" style={HASH}>
            SHA-256 {r.sha256}
          </code>
          {r.diff && (
            <details open={r.diff.toNumber === "now"}>
              <summary>What changed since revision {r.number}</summary>
              <RevisionDiff diff={r.diff} />
            </details>
          )}
        </li>
      ))}
    </ul>
  );
}
