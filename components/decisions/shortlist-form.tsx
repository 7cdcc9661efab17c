"use client";
import { memo, useActionState, useCallback, useMemo, useState } from "react";
import type { ActionState } from "@/lib/action-state";
import { formatNumber } from "@/lib/format";
import { FormMessage } from "@/components/ui/form-feedback";
import { TableScroll } from "@/components/ui/table-scroll";

export interface UnshortlistedModel {
  name: string;
  /** The model the importers' name matching takes this name for (the first name seen of it). */
  group: string;
  scores: { stage: "LEADERBOARD" | "PREFERENCE"; suite: string; metric: string; value: number }[];
}

type Row = { ticked: boolean; candidate: string; provider: string };

const orgOf = (name: string) => (name.includes("/") ? name.slice(0, name.indexOf("/")) : "");
const shortName = (name: string) => (name.includes("/") ? name.slice(name.lastIndexOf("/") + 1) : name);
const scoreText = (s: UnshortlistedModel["scores"][number]) =>
  `${s.suite} ${s.metric} ${formatNumber(s.value, s.stage === "PREFERENCE" ? 0 : 3)}`;

/**
 * Shortlisting from the imported leaderboards: tick the models, name each candidate. Rows given
 * the same candidate name become one candidate — that is how one model's different spellings
 * across suites are mapped; names the importers' matching already takes for one model start with
 * the same candidate name.
 */
export function ShortlistForm({
  decisionId,
  models,
  action,
}: {
  decisionId: string;
  models: UnshortlistedModel[];
  action: (s: ActionState, f: FormData) => Promise<ActionState>;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  const [rows, setRows] = useState<Record<string, Row>>(() =>
    Object.fromEntries(
      models.map((m) => [m.name, { ticked: false, candidate: shortName(m.group), provider: orgOf(m.group) }]),
    ),
  );
  const [filter, setFilter] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const visible = useMemo(
    () => models.filter((m) => !filter || m.name.toLowerCase().includes(filter.toLowerCase())),
    [models, filter],
  );
  // Stable, so a change re-renders only its own row (a leaderboard can list a thousand models).
  const update = useCallback(
    (name: string, patch: Partial<Row>) => setRows((r) => ({ ...r, [name]: { ...r[name]!, ...patch } })),
    [],
  );

  const entries = () => {
    const byName = new Map<string, { name: string; provider: string; models: string[] }>();
    for (const m of models) {
      const row = rows[m.name]!;
      if (!row.ticked) continue;
      const key = row.candidate.trim().toLowerCase();
      const entry = byName.get(key) ?? { name: row.candidate.trim(), provider: "", models: [] };
      entry.provider ||= row.provider.trim();
      entry.models.push(m.name);
      byName.set(key, entry);
    }
    return [...byName.values()].map((e) => ({
      ...e,
      modelId: e.models.find((n) => n.includes("/")) ?? "",
      version: "",
    }));
  };
  const ticked = entries();

  return (
    <form
      action={formAction}
      aria-label="Shortlist from the leaderboards"
      onSubmit={(e) => {
        const list = entries();
        const missing = list.find((c) => !c.name)
          ? "Name every ticked model's candidate."
          : list.find((c) => !c.provider)
            ? `Name the provider of ${list.find((c) => !c.provider)!.name}.`
            : list.length === 0
              ? "Tick at least one model."
              : null;
        setProblem(missing);
        if (missing) e.preventDefault();
      }}
    >
      <input type="hidden" name="decisionId" value={decisionId} />
      <input type="hidden" name="shortlist" value={JSON.stringify({ candidates: ticked })} />
      {models.length > 12 && (
        <label>
          Find a model{" "}
          <input
            type="search"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            placeholder="part of its name"
          />
        </label>
      )}
      <TableScroll label="Models to shortlist">
        <table className="shortlist-table">
          <caption>
            {models.length} model{models.length === 1 ? "" : "s"} in the imported leaderboards, not shortlisted
          </caption>
          <thead>
            <tr>
              <th scope="col">Shortlist</th>
              <th scope="col">Model (as the file names it)</th>
              <th scope="col">Scores</th>
              <th scope="col">Candidate name</th>
              <th scope="col">Provider</th>
            </tr>
          </thead>
          <tbody>
            {visible.map((m) => (
              <ModelRow key={m.name} model={m} row={rows[m.name]!} update={update} />
            ))}
          </tbody>
        </table>
      </TableScroll>
      <p className="muted">
        {ticked.length === 0
          ? "Nothing ticked yet."
          : `Will shortlist ${ticked.length} candidate${ticked.length === 1 ? "" : "s"}: ${ticked.map((c) => `${c.name} (${c.models.length} name${c.models.length === 1 ? "" : "s"})`).join(", ")}.`}
      </p>
      {problem && (
        <p className="message-error" role="status">
          {problem}
        </p>
      )}
      <FormMessage state={state} />
      <button type="submit" disabled={pending || ticked.length === 0}>
        {pending ? "Shortlisting…" : "Shortlist the ticked models"}
      </button>
    </form>
  );
}

const ModelRow = memo(function ModelRow({
  model: m,
  row,
  update,
}: {
  model: UnshortlistedModel;
  row: Row;
  update: (name: string, patch: Partial<Row>) => void;
}) {
  return (
    <tr>
      <td>
        <input
          type="checkbox"
          aria-label={`Shortlist ${m.name}`}
          checked={row.ticked}
          onChange={(e) => update(m.name, { ticked: e.target.checked })}
        />
      </td>
      <td>{m.name}</td>
      <td className="muted">
        {m.scores.slice(0, 4).map(scoreText).join("; ")}
        {m.scores.length > 4 ? `; +${m.scores.length - 4} more` : ""}
      </td>
      <td>
        <input
          type="text"
          aria-label={`Candidate name for ${m.name}`}
          size={Math.max(16, row.candidate.length + 2)}
          value={row.candidate}
          onChange={(e) => update(m.name, { candidate: e.target.value })}
        />
      </td>
      <td>
        <input
          type="text"
          aria-label={`Provider of ${m.name}`}
          value={row.provider}
          onChange={(e) => update(m.name, { provider: e.target.value })}
        />
      </td>
    </tr>
  );
});
