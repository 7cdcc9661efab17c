"use client";

import { createContext, useContext, useMemo, useState } from "react";
import type { WhatIfParameters } from "@/lib/pack/what-if-pack";
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
  setThreshold: (t: number | null) => void;
  setPrevalence: (pi: number) => void;
  reset: () => void;
}

const WhatIfContext = createContext<WhatIfState | null>(null);

export function WhatIfProvider({
  prevalence,
  operatingThreshold,
  children,
}: {
  prevalence: number;
  operatingThreshold: number;
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
      setThreshold,
      setPrevalence,
      reset: () => {
        setThreshold(null);
        setPrevalence(prevalence);
      },
    }),
    [threshold, pi, prevalence, operatingThreshold],
  );
  return <WhatIfContext.Provider value={value}>{children}</WhatIfContext.Provider>;
}

/** Outside a provider (a page without the controls) the stored figures are shown. */
export function useWhatIf(fallback: { prevalence: number; operatingThreshold: number }): WhatIfState {
  const state = useContext(WhatIfContext);
  return (
    state ?? {
      at: { threshold: null, prevalence: fallback.prevalence },
      stored: fallback,
      isStored: true,
      setThreshold: () => {},
      setPrevalence: () => {},
      reset: () => {},
    }
  );
}

export function describeWhatIf(at: WhatIfParameters): string {
  return `t = ${at.threshold === null ? "each candidate's stored threshold" : formatThreshold(at.threshold)}, π = ${formatPercent(at.prevalence)}`;
}

/** Says which figures a part of the page shows: the what-if's, or the stored (signed) ones. */
export function FiguresShown({ stored: fallback }: { stored: { prevalence: number; operatingThreshold: number } }) {
  const { at, isStored, stored } = useWhatIf(fallback);
  return isStored ? (
    <p className="figures-shown" data-figures="stored">
      <span className="figures-tag">Stored figures</span> at π = {formatPercent(stored.prevalence)}, each candidate at
      its operating threshold — the figures the exports and the pack revision hold.
    </p>
  ) : (
    <p className="figures-shown what-if-shown" data-figures="what-if">
      <span className="figures-tag">What-if figures</span> at {describeWhatIf(at)} — not stored, not signed.
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
        show what-if figures; the rest of the page and every export show the stored ones.
      </span>
      <button type="button" onClick={state.reset}>
        Show the stored figures
      </button>
    </section>
  );
}
