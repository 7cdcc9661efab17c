"use client";

import { createContext, useContext, useEffect, useState } from "react";
import type { PageView, XyChartShell } from "@/lib/pack/page/page-view";
import { XyChart } from "@/components/charts/xy-chart";

/**
 * The page's view (lib/pack/page/page-view.ts: chart series, stored curves), fetched once by the
 * browser after the page has rendered, from a URL keyed by the evidence state — so the page's HTML
 * stays small and a revisit at the same state is served from the browser's cache. Until it has
 * arrived, charts are empty boxes of their size and stage 4 shows its stored figures.
 */
const PageViewContext = createContext<PageView | null>(null);

export function PageViewProvider({ src, children }: { src: string; children: React.ReactNode }) {
  const [view, setView] = useState<PageView | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    fetch(src, { credentials: "same-origin" })
      .then((res) => (res.ok ? (res.json() as Promise<PageView>) : Promise.reject(new Error(String(res.status)))))
      .then((v) => live && setView(v))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [src]);
  return (
    <PageViewContext.Provider value={view}>
      {failed && (
        <p className="message-error no-print" role="note">
          The charts could not be loaded: reload the page to try again.
        </p>
      )}
      <span hidden data-testid="page-view" data-state={view ? "ready" : failed ? "failed" : "loading"} />
      {children}
    </PageViewContext.Provider>
  );
}

/** null until the view has arrived (or outside a provider). */
export function usePageView(): PageView | null {
  return useContext(PageViewContext);
}

/** A chart whose series come with the page's view. */
export function ViewChart({ shell }: { shell: XyChartShell }) {
  const view = usePageView();
  return <XyChart model={{ ...shell, series: view?.series[shell.id] ?? [] }} />;
}
