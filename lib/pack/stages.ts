/**
 * The five-stage benchmark-to-eval handoff (SPEC §3): the product's spine. Stages 1–2 can
 * never satisfy the verdict.
 */
export const STAGES = [
  {
    number: 1,
    key: "leaderboard",
    name: "Leaderboard score",
    examples: "MMLU, HELM, Open LLM Leaderboard, …",
    question: "Is this model broadly capable under a fixed suite?",
    evidenceClass: "benchmark (named public suite)",
    ownsVerdict: "No — shortlisting only",
    owns: "no",
  },
  {
    number: 2,
    key: "preference",
    name: "Preference / Elo ranking",
    examples: "Chatbot Arena",
    question: "Do humans prefer its open-ended responses?",
    evidenceClass: "benchmark (named public arena)",
    ownsVerdict: "No — shortlisting only",
    owns: "no",
  },
  {
    number: 3,
    key: "task-accuracy",
    name: "Task-specific accuracy",
    examples: "your labelled data",
    question: "Precision, recall, PR-AUC on your labelled data",
    evidenceClass: "benchmark (your named eval set)",
    ownsVerdict: "Partial — the accuracy verdict",
    owns: "partial",
  },
  {
    number: 4,
    key: "class-balance",
    name: "Class-balance stress test",
    examples: "your prevalence and costs",
    question: "How does recall hold on rare positives?",
    evidenceClass: "benchmark (your distribution)",
    ownsVerdict: "Yes, for failure-mode risk",
    owns: "yes",
  },
  {
    number: 5,
    key: "operational",
    name: "Operational benchmark",
    examples: "your serving harness",
    question: "Latency, throughput, cost under serving load",
    evidenceClass: "benchmark (your serving harness)",
    ownsVerdict: "Yes, for feasibility",
    owns: "yes",
  },
] as const;

export type Stage = (typeof STAGES)[number];
export type StageKey = Stage["key"];
