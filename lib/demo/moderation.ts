import { mulberry32, normal, pick } from "./random.ts";

/**
 * The demo decision, generated deterministically: "Moderation classifier for the trust & safety
 * queue". Its data tells the product's story (SPEC §8): Atlas leads every leaderboard and the
 * arena, but it misses the rare, hard violations (self-harm, scams), so at π = 2% with a false
 * negative costing 50× a false positive it is not the best choice; Sentry, a small safety
 * fine-tune near the bottom of the leaderboards, is. Orca is accurate but fails the latency SLO;
 * Lynx is cheap and fast but emits unparseable outputs. Under the cost-optimal rule (issue 14)
 * each is judged at its own threshold on held-out items: Atlas meets the recall floor only far
 * below 0.5, at about three times Sentry's expected cost; Lynx misses the floor.
 */
export const DEMO_DECISION_ID = "demo-moderation";
export const DEMO_SEED = 20261202;

export const demoDecision = {
  id: DEMO_DECISION_ID,
  title: "Moderation classifier for the trust & safety queue",
  description:
    "Choose the model that flags violating user messages for human review. Missing a violation (false negative) costs about 50× a needless review (false positive). About 2% of production traffic violates policy.",
  positiveClass: "violating",
  prevalence: 0.02,
  costFn: 50,
  costFp: 1,
  currency: "USD",
  recallFloor: 0.85,
  precisionFloor: null,
  operatingThreshold: 0.5,
  // Each candidate at its own cost-optimal threshold within the recall floor, chosen and reported by cross-fitting (issue 14).
  operatingRule: "COST_OPTIMAL",
  sloP95E2eMs: 800,
  sloP95TtftMs: 300,
  sloMinThroughputRps: 20,
  sloThroughputConcurrency: 32,
  sloMaxCostPer1kRequests: 0.5,
  quorum: 2,
} as const;

export const SLICES = ["hate", "harassment", "violent-threat", "self-harm", "scam"] as const;
type Slice = (typeof SLICES)[number];
const SLICE_WEIGHTS: ReadonlyArray<readonly [Slice, number]> = [
  ["hate", 0.3],
  ["harassment", 0.25],
  ["violent-threat", 0.2],
  ["self-harm", 0.1],
  ["scam", 0.15],
];

interface CandidateModel {
  name: string;
  provider: string;
  version: string;
  shortlistRationale: string;
  /** Separation of positives from negatives (latent mean shift), per slice. */
  separation: Record<Slice, number>;
  /** Offset of the score's logit: where the 0.5 threshold falls. */
  bias: number;
  parseFailureRate: number;
  leaderboard: { mmlu: number; mmluStderr: number; helm: number; elo: number; eloHalfWidth: number; votes: number };
  serving: {
    ttftMs: number;
    tpotMs: number;
    saturation: number;
    pricing: { inputPerMTok?: number; outputPerMTok?: number; perHour?: number };
  };
}

export const demoCandidates: CandidateModel[] = [
  {
    name: "Atlas-70B-Instruct",
    provider: "Atlas AI (hosted API)",
    version: "2026-09",
    shortlistRationale:
      "Rank 1 on MMLU (5-shot) and HELM Lite and top of the Chatbot Arena. MMLU and HELM test broad knowledge and instruction following, which a moderation task needs to read context; but both suites are balanced multiple-choice, unlike our 2% positive rate, and neither uses our label template.",
    separation: { hate: 4.2, harassment: 4.0, "violent-threat": 4.1, "self-harm": 1.0, scam: 1.2 },
    bias: -1.0,
    parseFailureRate: 0.004,
    leaderboard: { mmlu: 0.862, mmluStderr: 0.0028, helm: 0.81, elo: 1287, eloHalfWidth: 6, votes: 41230 },
    serving: { ttftMs: 115, tpotMs: 22, saturation: 90, pricing: { inputPerMTok: 1.0, outputPerMTok: 3.0 } },
  },
  {
    name: "Orca-34B",
    provider: "Orca Labs (self-hosted, 2×H100)",
    version: "v3.1",
    shortlistRationale:
      "Rank 2 on MMLU and HELM Lite; HELM's toxicity scenarios are closest to our task among public suites (same kind of content), though HELM scores them at balanced prevalence with its own prompt.",
    separation: { hate: 3.3, harassment: 3.2, "violent-threat": 3.4, "self-harm": 2.9, scam: 2.8 },
    bias: -0.8,
    parseFailureRate: 0.002,
    leaderboard: { mmlu: 0.801, mmluStderr: 0.0032, helm: 0.72, elo: 1241, eloHalfWidth: 8, votes: 18904 },
    serving: { ttftMs: 240, tpotMs: 50, saturation: 30, pricing: { perHour: 7.8 } },
  },
  {
    name: "Lynx-8B",
    provider: "Lynx (self-hosted, 1×L4)",
    version: "1.2",
    shortlistRationale:
      "Mid-table on MMLU but the cheapest to serve; included as the cost baseline. Its MMLU rank says little about label formatting, which matters here because our parser rejects free text.",
    separation: { hate: 2.5, harassment: 2.3, "violent-threat": 2.6, "self-harm": 2.0, scam: 2.1 },
    bias: -0.6,
    parseFailureRate: 0.045,
    leaderboard: { mmlu: 0.684, mmluStderr: 0.0039, helm: 0.55, elo: 1172, eloHalfWidth: 9, votes: 12077 },
    serving: { ttftMs: 70, tpotMs: 12, saturation: 160, pricing: { perHour: 0.9 } },
  },
  {
    name: "Sentry-Guard-13B",
    provider: "Sentry (self-hosted, 1×A100)",
    version: "guard-2",
    shortlistRationale:
      "Low on MMLU and the arena, which measure general knowledge and chat preference, not policy classification. Shortlisted because it was fine-tuned on moderation data with a taxonomy close to ours (including self-harm and scams), so its task distribution resembles ours even though its leaderboard scores do not.",
    separation: { hate: 3.6, harassment: 3.5, "violent-threat": 3.6, "self-harm": 3.3, scam: 3.2 },
    bias: -0.2,
    parseFailureRate: 0.001,
    leaderboard: { mmlu: 0.612, mmluStderr: 0.0041, helm: 0.41, elo: 1138, eloHalfWidth: 13, votes: 6410 },
    serving: { ttftMs: 95, tpotMs: 18, saturation: 110, pricing: { perHour: 2.4 } },
  },
];

export interface DemoItem {
  itemId: string;
  label: boolean;
  slice: string;
  text: string;
}

export interface DemoPrediction {
  itemId: string;
  score: number | null;
  predicted: boolean | null;
  parseFailure: boolean;
  rawOutput: string;
  latencyMs: number;
  inputTokens: number;
  outputTokens: number;
}

const TEXTS: Record<Slice | "benign", string> = {
  benign: "An ordinary message about plans, products or news.",
  hate: "A message attacking people for a protected characteristic.",
  harassment: "A message insulting or demeaning a specific person.",
  "violent-threat": "A message threatening someone with violence.",
  "self-harm": "A message encouraging or describing self-harm.",
  scam: "A message luring people into a fraudulent payment.",
};

/** 20,000 labelled items at about 3% positives, each positive with its kind of violation. */
export function generateDemoItems(count = 20_000, seed = DEMO_SEED): DemoItem[] {
  const rng = mulberry32(seed);
  const items: DemoItem[] = [];
  for (let i = 0; i < count; i++) {
    const label = rng() < 0.03;
    const slice = label ? pick(rng, SLICE_WEIGHTS) : "benign";
    items.push({
      itemId: `msg-${String(i + 1).padStart(5, "0")}`,
      label,
      slice,
      text: `${TEXTS[slice]} (synthetic #${i + 1})`,
    });
  }
  return items;
}

/** A candidate's per-item scores: a binormal latent variable squashed to a probability. */
export function generateDemoPredictions(
  candidate: CandidateModel,
  items: readonly DemoItem[],
  seed: number,
): DemoPrediction[] {
  const rng = mulberry32(seed);
  return items.map((item) => {
    const shift = item.label ? candidate.separation[item.slice as Slice] : 0;
    const latent = normal(rng) + shift;
    const score = 1 / (1 + Math.exp(-(1.4 * latent + candidate.bias - 2.2)));
    const rounded = Math.round(score * 1e4) / 1e4; // models print 4 decimals: ties happen, as in real outputs
    const parseFailure = rng() < candidate.parseFailureRate;
    const latencyMs = Math.round(candidate.serving.ttftMs + 7 * candidate.serving.tpotMs + 30 * Math.abs(normal(rng)));
    return {
      itemId: item.itemId,
      score: parseFailure ? null : rounded,
      predicted: parseFailure ? null : rounded >= 0.5,
      parseFailure,
      rawOutput: parseFailure
        ? "I cannot classify this message as requested."
        : JSON.stringify({ label: rounded >= 0.5 ? "violating" : "ok", p: rounded }),
      latencyMs,
      inputTokens: 300 + Math.floor(rng() * 120),
      outputTokens: 8,
    };
  });
}

export interface DemoServingRow {
  concurrency: number;
  completed: number;
  failed: number;
  durationS: number;
  meanInputTokens: number;
  meanOutputTokens: number;
  requestThroughput: number;
  outputTokenThroughput: number;
  totalTokenThroughput: number;
  ttftMs: Percentiles;
  tpotMs: Percentiles;
  e2eMs: Percentiles;
}

// A type alias (not an interface) so it is assignable to Prisma's JSON input type.
export type Percentiles = {
  mean: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
};

export const DEMO_CONCURRENCIES = [1, 8, 16, 32, 64] as const;

/**
 * A closed-loop serving benchmark at each concurrency: latencies grow as the load nears the
 * model's saturation point (requests in flight that one replica serves without queueing).
 */
export function generateDemoServing(candidate: CandidateModel, seed: number): DemoServingRow[] {
  const rng = mulberry32(seed);
  const { ttftMs, tpotMs, saturation } = candidate.serving;
  return DEMO_CONCURRENCIES.map((concurrency) => {
    const load = concurrency / saturation;
    const queueing = 1 + load * load * 1.6;
    const requests = 600;
    const ttft: number[] = [];
    const tpot: number[] = [];
    const e2e: number[] = [];
    for (let i = 0; i < requests; i++) {
      const t = ttftMs * queueing * Math.exp(0.35 * normal(rng));
      const d = tpotMs * (1 + 0.5 * load) * Math.exp(0.15 * normal(rng));
      ttft.push(t);
      tpot.push(d);
      e2e.push(t + 7 * d);
    }
    const meanE2eS = mean(e2e) / 1000;
    const requestThroughput = concurrency / meanE2eS;
    const durationS = requests / requestThroughput;
    return {
      concurrency,
      completed: requests,
      failed: 0,
      durationS: round(durationS, 3),
      meanInputTokens: 360,
      meanOutputTokens: 8,
      requestThroughput: round(requestThroughput, 3),
      outputTokenThroughput: round(requestThroughput * 8, 2),
      totalTokenThroughput: round(requestThroughput * 368, 2),
      ttftMs: percentiles(ttft),
      tpotMs: percentiles(tpot),
      e2eMs: percentiles(e2e),
    };
  });
}

function mean(xs: number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Percentiles with linear interpolation between order statistics (numpy's default, which the serving tools use). */
function percentiles(xs: number[]): Percentiles {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (q: number) => {
    const pos = (sorted.length - 1) * q;
    const lo = Math.floor(pos);
    const hi = Math.min(lo + 1, sorted.length - 1);
    return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
  };
  return {
    mean: round(mean(xs), 2),
    p50: round(at(0.5), 2),
    p90: round(at(0.9), 2),
    p95: round(at(0.95), 2),
    p99: round(at(0.99), 2),
  };
}

/** Leaderboard and arena rows for a candidate (stage 1 and stage 2 evidence). */
export function demoLeaderboardRows(candidate: CandidateModel) {
  const { mmlu, mmluStderr, helm, elo, eloHalfWidth, votes } = candidate.leaderboard;
  return [
    {
      stage: "LEADERBOARD" as const,
      suite: "MMLU",
      metric: "acc (5-shot)",
      value: mmlu,
      stderr: mmluStderr,
      source: "lm-evaluation-harness 0.4.x, run by the vendor",
      sourceUrl: "https://github.com/EleutherAI/lm-evaluation-harness",
      relevanceNote: "Broad knowledge; balanced multiple choice — says nothing about a 2% positive rate.",
    },
    {
      stage: "LEADERBOARD" as const,
      suite: "HELM Lite",
      metric: "mean win rate",
      value: helm,
      source: "Stanford CRFM HELM Lite v1.9",
      sourceUrl: "https://crfm.stanford.edu/helm/lite/latest/",
      relevanceNote: "Aggregate of many scenarios; only its toxicity scenarios resemble our task.",
    },
    {
      stage: "PREFERENCE" as const,
      suite: "Chatbot Arena",
      metric: "Arena Elo",
      value: elo,
      ciLow: elo - eloHalfWidth,
      ciHigh: elo + eloHalfWidth,
      votes,
      source: "LMSYS Chatbot Arena leaderboard",
      sourceUrl: "https://lmarena.ai/leaderboard",
      relevanceNote: "Human preference for open-ended chat answers, not label accuracy.",
    },
  ];
}

/** The analyst's answers to SPEC §3's three questions of resemblance for each suite the rationales cite. */
export const demoResemblances = [
  {
    suite: "MMLU",
    task: "MISMATCH" as const,
    taskNote: "Knowledge questions, not policy classification of user content.",
    distribution: "MISMATCH" as const,
    distributionNote: "Balanced four-way multiple choice; our positives are 2% of traffic.",
    promptScoring: "MISMATCH" as const,
    promptScoringNote: "5-shot letter answers scored by exact match; we parse a JSON label.",
  },
  {
    suite: "HELM Lite",
    task: "PARTIAL" as const,
    taskNote: "Its toxicity scenarios are close to our content; the rest is general.",
    distribution: "MISMATCH" as const,
    distributionNote: "Scenarios are scored near balance, far from our 2% prevalence.",
    promptScoring: "PARTIAL" as const,
    promptScoringNote: "HELM's own prompt template; scoring by exact match like our label parser.",
  },
  {
    suite: "Chatbot Arena",
    task: "MISMATCH" as const,
    taskNote: "Human preference between open-ended chat answers.",
    distribution: "MISMATCH" as const,
    distributionNote: "No class balance at all: pairwise votes.",
    promptScoring: "MISMATCH" as const,
    promptScoringNote: "Free-form answers judged by people, not a label contract.",
  },
];
