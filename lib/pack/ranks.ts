import { SHOWN_TEXT, type FigureText } from "@/lib/format";
/**
 * Rank comparison across stages (SPEC §3 "Across stages"), pure. Ranks are 1..n with ties sharing
 * the best rank ("competition" ranking); a candidate without the figure has no rank.
 */
export type Ranking = Map<string, number>;

export function rankBy(values: ReadonlyMap<string, number | null | undefined>, higherIsBetter: boolean): Ranking {
  const present = [...values].filter((e): e is [string, number] => typeof e[1] === "number" && Number.isFinite(e[1]));
  return new Map(
    present.map(([id, v]) => [id, 1 + present.filter(([, w]) => (higherIsBetter ? w > v : w < v)).length]),
  );
}

/** The pairs of candidates ranked by both: concordant (same order), discordant, and tied in each. */
export function pairCounts(a: Ranking, b: Ranking) {
  const ids = [...a.keys()].filter((id) => b.has(id));
  let concordant = 0;
  let discordant = 0;
  let tiedA = 0;
  let tiedB = 0;
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const da = Math.sign(a.get(ids[i]!)! - a.get(ids[j]!)!);
      const db = Math.sign(b.get(ids[i]!)! - b.get(ids[j]!)!);
      if (da === 0) tiedA++;
      if (db === 0) tiedB++;
      if (da !== 0 && db !== 0) {
        if (da === db) concordant++;
        else discordant++;
      }
    }
  }
  return { pairs: (ids.length * (ids.length - 1)) / 2, concordant, discordant, tiedA, tiedB };
}

/**
 * Kendall's τ-b between two rankings over the candidates ranked by both:
 * τ_b = (C − D) / √((n₀ − n₁)(n₀ − n₂)), n₀ = n(n−1)/2, n₁ and n₂ the pairs tied in each ranking.
 * Null when fewer than two candidates are common or a ranking is all ties.
 */
export function kendallTau(a: Ranking, b: Ranking): number | null {
  const { pairs, concordant, discordant, tiedA, tiedB } = pairCounts(a, b);
  const denominator = Math.sqrt((pairs - tiedA) * (pairs - tiedB));
  return denominator > 0 ? (concordant - discordant) / denominator : null;
}

/** What Kendall's τ says, in one sentence, for a reader who has not met it. */
export const TAU_MEANING =
  "τ counts the pairs of candidates two rankings put in the same order against those they swap: +1 is the same order, −1 the reverse, 0 no relation; a negative τ means the shortlisting ranking orders the candidates against this task's evidence.";

/**
 * Each shortlisting ranking against each verdict ranking, as a table: the pairs of candidates
 * they order alike and the pairs they swap, and τ (the PDF's table instead of a paragraph of pairs).
 */
export function tauTable(
  rankings: readonly { label: string; role: "shortlisting" | "verdict"; ranks: Record<string, number> }[],
) {
  const of = (r: (typeof rankings)[number]): Ranking => new Map(Object.entries(r.ranks));
  const verdict = rankings.filter((r) => r.role === "verdict");
  return rankings
    .filter((r) => r.role === "shortlisting")
    .flatMap((s) =>
      verdict.map((v) => {
        const counts = pairCounts(of(s), of(v));
        return {
          shortlisting: s.label,
          verdict: v.label,
          agree: counts.concordant,
          disagree: counts.discordant,
          tau: kendallTau(of(s), of(v)),
        };
      }),
    );
}

export interface NamedRanking {
  key: string;
  /** As it reads in a sentence: "MMLU", "AP at 2% prevalence". */
  label: string;
  ranking: Ranking;
}

/** Kendall's τ below this between a shortlisting and a verdict ranking: the two orders disagree more than they agree. */
export const REVERSAL_TAU = 0;

export interface Reversal {
  /** "leader": a shortlisting ranking's #1 is not #1 on the task evidence (the headline reversal);
   *  "order": the two rankings disagree overall (τ below REVERSAL_TAU), with the pairs they swap. */
  kind: "leader" | "order";
  candidateId: string | null;
  text: string;
}

/** Pairs [x, y] that ranking a puts x above y and ranking b puts y above x (SPEC §3's reversal). */
export function reversedPairs(a: Ranking, b: Ranking): [string, string][] {
  const ids = [...a.keys()].filter((id) => b.has(id));
  const out: [string, string][] = [];
  for (const x of ids) for (const y of ids) if (a.get(x)! < a.get(y)! && b.get(x)! > b.get(y)!) out.push([x, y]);
  return out;
}

/**
 * Rank reversals in SPEC §3's terms, called out only when they matter: a shortlisting ranking's
 * #1 that is not #1 on a verdict ranking ("Atlas: #1 on MMLU, but #3 on expected cost"), and a
 * shortlisting ranking whose order disagrees with a verdict ranking overall (τ below
 * REVERSAL_TAU), with the pairs it swaps. A candidate slipping one place while τ stays positive
 * is not a reversal.
 */
export function rankReversals(
  candidates: readonly { id: string; name: string }[],
  shortlisting: readonly NamedRanking[],
  verdict: readonly NamedRanking[],
  text: FigureText = SHOWN_TEXT,
): Reversal[] {
  const name = (id: string) => candidates.find((c) => c.id === id)?.name ?? id;
  const part = (r: NamedRanking, id: string) => `#${r.ranking.get(id)} on ${r.label}`;
  const out: Reversal[] = [];
  for (const c of candidates) {
    const leads = shortlisting.filter(
      (r) => r.ranking.get(c.id) === 1 && [...r.ranking.values()].filter((v) => v === 1).length === 1,
    );
    const loses = verdict.filter((r) => r.ranking.has(c.id) && r.ranking.get(c.id) !== 1);
    if (leads.length && loses.length)
      out.push({
        kind: "leader",
        candidateId: c.id,
        text: `${c.name}: ${leads.map((r) => part(r, c.id)).join(" and ")}, but ${loses.map((r) => part(r, c.id)).join(" and ")}`,
      });
  }
  // Shortlisting rankings that disagree with the same verdict rankings by the same swapped pairs
  // (several suites often order the candidates alike) are named in one sentence.
  const disagreements = new Map<string, { labels: string[]; text: (labels: string[]) => string }>();
  for (const s of shortlisting) {
    const against = verdict
      .map((v) => ({ v, tau: kendallTau(s.ranking, v.ranking) }))
      .filter((x): x is { v: NamedRanking; tau: number } => x.tau !== null && x.tau < REVERSAL_TAU);
    if (against.length === 0) continue;
    const pairs = reversedPairs(s.ranking, against[0]!.v.ranking);
    const verdictPart = against.map(({ v, tau }) => `${v.label} (τ = ${text.number(tau, 2)})`).join(" and ");
    const pairPart = pairs.map(([x, y]) => `${name(x)} above ${name(y)}`).join(", ");
    const key = `${verdictPart}|${pairPart}`;
    const entry = disagreements.get(key) ?? {
      labels: [],
      text: (labels: string[]) =>
        `${labels.join(", ")} ${labels.length === 1 ? "disagrees" : "disagree"} with ${verdictPart}: ${labels.length === 1 ? "it puts" : "they put"} ${pairPart}, which ${against[0]!.v.label} reverses`,
    };
    entry.labels.push(s.label);
    disagreements.set(key, entry);
  }
  for (const { labels, text } of disagreements.values())
    out.push({ kind: "order", candidateId: null, text: text(labels) });
  return out;
}
