import type { PackCandidate, PackResemblance, PackScore } from "@/lib/pack/pack-data";
import { scoreTables, type ScoreTable } from "@/lib/pack/score-tables";
import { formatAsOf, formatScore } from "@/lib/format";
import { TableScroll } from "@/components/ui/table-scroll";

const ANSWER = { MATCH: "match", PARTIAL: "partial", MISMATCH: "mismatch" } as const;
const ANSWER_CLASS = { MATCH: "pass", PARTIAL: "warn", MISMATCH: "fail" } as const;

type Stage = "LEADERBOARD" | "PREFERENCE";

/** One suite and metric: each candidate's newest score, its interval and its rank among those that have one. */
function SuiteScoreTable({
  table,
  candidates,
  stage,
  openedAt,
}: {
  table: ScoreTable<PackScore>;
  candidates: PackCandidate[];
  stage: Stage;
  /** When the decision was opened: each row's age is counted from it. */
  openedAt: string | undefined;
}) {
  return (
    <TableScroll label={`${table.suite} scores`}>
      <table>
        <caption>
          {table.suite}{" "}
          <span className="muted">
            — {table.metric}, {table.higherIsBetter ? "higher" : "lower"} is better
          </span>
        </caption>
        <thead>
          <tr>
            <th scope="col">Candidate</th>
            <th scope="col" className="num">
              Score
            </th>
            <th scope="col" className="num">
              {stage === "PREFERENCE" ? "95% interval" : "Interval / stderr"}
            </th>
            {stage === "PREFERENCE" && (
              <th scope="col" className="num">
                Votes
              </th>
            )}
            <th scope="col" className="num">
              Rank
            </th>
            <th scope="col">Source, as of</th>
            <th scope="col">Relevance note</th>
          </tr>
        </thead>
        <tbody>
          {candidates.map((c) => {
            const s = table.scores.get(c.id);
            if (!s)
              return (
                <tr key={c.id}>
                  <th scope="row">{c.name}</th>
                  <td colSpan={stage === "PREFERENCE" ? 6 : 5} className="muted">
                    No score
                  </td>
                </tr>
              );
            return (
              <tr key={c.id}>
                <th scope="row">{c.name}</th>
                <td className="num">{formatScore(s).value}</td>
                <td className="num">{formatScore(s).uncertainty}</td>
                {stage === "PREFERENCE" && <td className="num">{s.votes?.toLocaleString("en-US") ?? "—"}</td>}
                <td className="num">
                  #{table.ranking.get(c.id)} of {table.scores.size} candidate
                  {table.scores.size === 1 ? "" : "s"}
                </td>
                <td>
                  {s.sourceUrl ? <a href={s.sourceUrl}>{s.source}</a> : s.source}
                  {/* The date the source states, apart from when it was imported into Verdict. */}
                  <small className="block">{formatAsOf(s.asOf, openedAt)}</small>
                  <small className="muted block">imported {s.retrievedAt.slice(0, 10)}</small>
                </td>
                <td>{s.relevanceNote || <span className="muted">—</span>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** The analyst's three answers on whether the suite resembles this task. */
function SuiteResemblance({ suite, resemblance }: { suite: string; resemblance: PackResemblance | undefined }) {
  return (
    <div className="resemblance">
      <strong>Does {suite} resemble this task?</strong>{" "}
      {resemblance ? (
        <ul>
          {(
            [
              ["Task", resemblance.task, resemblance.taskNote],
              ["Distribution", resemblance.distribution, resemblance.distributionNote],
              ["Prompt and scoring", resemblance.promptScoring, resemblance.promptScoringNote],
            ] as const
          ).map(([label, answer, note]) => (
            <li key={label}>
              {label}: <span className={ANSWER_CLASS[answer]}>{ANSWER[answer]}</span>
              {note ? ` — ${note}` : ""}
            </li>
          ))}
          <li data-testid="relevance-note">
            Relevance note: {resemblance.relevanceNote || <span className="muted">none written</span>}
          </li>
        </ul>
      ) : (
        <span className="muted">
          The analyst has not answered the three questions of resemblance (task, distribution, prompt and scoring) for
          this suite.
        </span>
      )}
    </div>
  );
}

/** Stages 1 and 2: imported public scores, side by side, marked as shortlisting evidence only. */
export function ScoresStage({
  candidates,
  scores,
  resemblances,
  stage,
  openedAt,
}: {
  candidates: PackCandidate[];
  scores: PackScore[];
  resemblances: PackResemblance[];
  stage: Stage;
  /** When the decision was opened (ISO): the reference of each leaderboard row's age. */
  openedAt: string | undefined;
}) {
  // One table per suite and metric, each candidate's newest score ranked among those that have it.
  const tables = scoreTables(scores, stage);
  const suites = [...new Set(tables.map((t) => t.suite))];
  return (
    <div>
      <p className="shortlisting-only" role="note">
        <strong>Shortlisting only.</strong>{" "}
        {stage === "LEADERBOARD"
          ? "A public suite's score can justify a shortlist; it cannot satisfy the verdict."
          : "Human preference for open-ended answers can justify a shortlist; it cannot satisfy the verdict."}
      </p>
      {suites.length === 0 && (
        <p className="muted">No {stage === "LEADERBOARD" ? "leaderboard" : "preference"} scores imported.</p>
      )}
      {suites.map((suite) => (
        <div key={suite} className="suite">
          {tables
            .filter((t) => t.suite === suite)
            .map((table) => (
              <SuiteScoreTable
                key={table.label}
                table={table}
                candidates={candidates}
                stage={stage}
                openedAt={openedAt}
              />
            ))}
          <SuiteResemblance suite={suite} resemblance={resemblances.find((r) => r.suite === suite)} />
        </div>
      ))}
    </div>
  );
}
