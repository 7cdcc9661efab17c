"use client";

import { createContext, useContext, useMemo, useState } from "react";
import { whatIfBasis, type WhatIfBasis, type WhatIfParameters } from "@/lib/pack/what-if-pack";
import type { OperatingRuleKind } from "@/lib/metrics/threshold-rule";
import { formatPercent, formatThreshold } from "@/lib/format";

/**
 * The what-if parameters of one page, shared by every part they move: the verdict band, stage 4
 * and the across-stages gates, funnel and total cost (each recomputes from the compact series it
 * was given). The stored (signed) figures are one click away ("Show the stored figures").
 */
interface WhatIfState {
  at: WhatIfParameters;
  /** The decision's stored parameters (what the exports and the pack revision hold). */
  stored: { prevalence: number; operatingThreshold: number };
  isStored: boolean;
  /** What the figures shown are read on (lib/pack/what-if-pack.ts `whatIfBasis`): one basis for the whole page. */
  basis: WhatIfBasis;
  setThreshold: (t: number | null) => void;
  setPrevalence: (pi: number) => void;
  reset: () => void;
}

const WhatIfContext = createContext<WhatIfState | null>(null);

export function WhatIfProvider({
  prevalence,
  operatingThreshold,
  operatingRule,
  children,
}: {
  prevalence: number;
  operatingThreshold: number;
  operatingRule: OperatingRuleKind | null | undefined;
  children: React.ReactNode;
}) {
  const [threshold, setThreshold] = useState<number | null>(null);
  const [pi, setPrevalence] = useState(prevalence);
  // Once a what-if is saved the stored parameters change: show the new stored figures.
  const [storedKey, setStoredKey] = useState(`${prevalence}:${operatingThreshold}`);
  if (storedKey !== `${prevalence}:${operatingThreshold}`) {
    setStoredKey(`${prevalence}:${operatingThreshold}`);
    setThreshold(null);
    setPrevalence(prevalence);
  }
  const value = useMemo<WhatIfState>(
    () => ({
      at: { threshold, prevalence: pi },
      stored: { prevalence, operatingThreshold },
      isStored: threshold === null && pi === prevalence,
      basis: whatIfBasis(operatingRule, { threshold, prevalence: pi }),
      setThreshold,
      setPrevalence,
      reset: () => {
        setThreshold(null);
        setPrevalence(prevalence);
      },
    }),
    [threshold, pi, prevalence, operatingThreshold, operatingRule],
  );
  return <WhatIfContext.Provider value={value}>{children}</WhatIfContext.Provider>;
}

type StoredParameters = { prevalence: number; operatingThreshold: number; operatingRule?: OperatingRuleKind | null };

/** Outside a provider (a page without the controls) the stored figures are shown. */
export function useWhatIf(fallback: StoredParameters): WhatIfState {
  const state = useContext(WhatIfContext);
  return (
    state ?? {
      at: { threshold: null, prevalence: fallback.prevalence },
      stored: fallback,
      isStored: true,
      basis: whatIfBasis(fallback.operatingRule, { threshold: null, prevalence: fallback.prevalence }),
      setThreshold: () => {},
      setPrevalence: () => {},
      reset: () => {},
    }
  );
}

export function describeWhatIf(at: WhatIfParameters): string {
  return `t = ${at.threshold === null ? "each candidate's stored threshold" : formatThreshold(at.threshold)}, π = ${formatPercent(at.prevalence)}`;
}

/** The basis in words, where figures are named (the band, the across-stages summary, the bar). */
function basisWords(basis: WhatIfBasis): string {
  if (basis === "held out") return " Held-out figures: each threshold was chosen on the other half of the items.";
  if (basis === "in-sample")
    return " In-sample figures: the what-if threshold replaces the rule's choice and is read on all items (optimistic).";
  return "";
}

/** Says which figures a part of the page shows: the what-if's, or the stored (signed) ones. */
export function FiguresShown({ stored: fallback }: { stored: StoredParameters }) {
  const { at, isStored, stored, basis } = useWhatIf(fallback);
  return isStored ? (
    <p className="figures-shown" data-figures="stored" data-basis={basis ?? "all items"}>
      <span className="figures-tag">Stored figures</span> at π = {formatPercent(stored.prevalence)}, each candidate at
      its operating threshold — the figures the exports and the pack revision hold.{basisWords(basis)}
    </p>
  ) : (
    <p className="figures-shown what-if-shown" data-figures="what-if" data-basis={basis ?? "all items"}>
      <span className="figures-tag">What-if figures</span> at {describeWhatIf(at)} — not stored, not signed.
      {basisWords(basis)}
    </p>
  );
}

/** A bar that stays in view while the what-if is on, whichever part of the page is on screen. */
export function WhatIfBar() {
  const state = useContext(WhatIfContext);
  if (!state || state.isStored) return null;
  return (
    <section className="what-if-bar no-print" aria-label="What-if figures shown" data-testid="what-if-bar">
      <span>
        <strong>What if:</strong> {describeWhatIf(state.at)}. The verdict, stage 4 and the gates, funnel and total cost
        show what-if figures; the rest of the page and every export show the stored ones.{basisWords(state.basis)}
      </span>
      <button type="button" onClick={state.reset}>
        Show the stored figures
      </button>
    </section>
  );
}
