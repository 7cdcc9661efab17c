"use client";

import { STAGES } from "@/lib/pack/stages";
import type { StageHeadlines } from "@/lib/pack/stage-summary";
import { TableScroll } from "@/components/ui/table-scroll";

const OWNS_CLASS = { no: "badge-no", partial: "badge-partial", yes: "badge-yes" } as const;

/**
 * The SPEC §3 table, one row per stage, with a headline figure per candidate from stored evidence.
 * A client component only so that the page carries its headlines, not its rendered rows, twice.
 */
export function StageTable({
  candidates,
  headlines,
}: {
  candidates: { id: string; name: string; provider: string }[];
  headlines: StageHeadlines;
}) {
  return (
    <TableScroll label="Evidence per stage and candidate">
      <table className="stage-table">
        <caption>Evidence per stage and candidate</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Stage</th>
            <th scope="col">Question answered</th>
            <th scope="col">Evidence class</th>
            <th scope="col">Owns the verdict?</th>
            {candidates.map((c) => (
              <th scope="col" key={c.id}>
                {c.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {STAGES.map((stage) => (
            <tr key={stage.key} data-stage={stage.key}>
              <td>{stage.number}</td>
              <th scope="row">
                {stage.name}
                <small className="muted" style={{ display: "block", fontWeight: 400 }}>
                  {stage.examples}
                </small>
              </th>
              <td>{stage.question}</td>
              <td>{stage.evidenceClass}</td>
              <td>
                <span className={`badge ${OWNS_CLASS[stage.owns]}`}>{stage.ownsVerdict}</span>
              </td>
              {candidates.map((c) => {
                const h = headlines[stage.key].get(c.id);
                return (
                  <td key={c.id} className="figure">
                    {h ? (
                      <>
                        <span className={h.tone ?? undefined}>
                          {h.tone === "fail" ? "✗ " : h.tone === "pass" ? "✓ " : h.tone === "warn" ? "! " : ""}
                          {h.text}
                        </span>
                        {h.detail && <small>{h.detail}</small>}
                      </>
                    ) : (
                      <span className="muted">No evidence</span>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
