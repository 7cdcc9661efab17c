import type { GateView } from "./types";
import { TableScroll } from "@/components/ui/table-scroll";

/** Per candidate, the gates an approval must pass (a failing one needs a written waiver). */
export function GatesTable({
  candidates,
  gates,
}: {
  candidates: Array<{ id: string; name: string }>;
  gates: Record<string, GateView[]>;
}) {
  return (
    <TableScroll label="Gates per candidate">
      <table>
        <caption>Gates per candidate, from the pack revision</caption>
        <thead>
          <tr>
            <th scope="col">Candidate</th>
            <th scope="col">Result</th>
            <th scope="col">Failing gates</th>
          </tr>
        </thead>
        <tbody>
          {candidates.map((c) => {
            const list = gates[c.id] ?? [];
            const failed = list.filter((g) => !g.pass);
            return (
              <tr key={c.id}>
                <th scope="row">{c.name}</th>
                <td className={failed.length ? "fail" : "pass"}>
                  {failed.length ? `fails ${failed.length} of ${list.length}` : `passes all ${list.length}`}
                </td>
                <td>{failed.length ? failed.map((g) => `${g.label} (${g.detail})`).join("; ") : "—"}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
