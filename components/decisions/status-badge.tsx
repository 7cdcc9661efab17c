const LABELS: Record<string, string> = {
  DRAFT: "Draft",
  IN_REVIEW: "In review",
  CHANGES_REQUESTED: "Changes requested",
  APPROVED: "Approved",
  REJECTED: "Rejected",
};

export function StatusBadge({ status }: { status: string }) {
  const tone = status === "APPROVED" ? "badge-yes" : status === "REJECTED" ? "badge-no" : "badge-partial";
  return <span className={`badge ${tone}`}>{LABELS[status] ?? status}</span>;
}
