/**
 * A wide table scrolls inside its card, never the page (390 px screens). The region is focusable
 * and named, so a keyboard user can scroll it too (axe's scrollable-region-focusable).
 */
export function TableScroll({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
