import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { can } from "@/lib/auth/permissions";
import { requirePagePermission } from "@/lib/server/session";
import { getUploadsOverview } from "@/lib/server/imports/uploads-page";
import { AppError } from "@/lib/server/errors";
import type { UploadContext } from "@/components/uploads/upload-panel";
import { frozenReason } from "@/lib/decisions/editable";
import { datasetVersionLabel } from "@/lib/decisions/labels";
import { EvalRunsSection, ImportsSection, UploadPanels } from "./sections";

export const metadata: Metadata = { title: "Evidence uploads" };

export default async function UploadsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePagePermission("decision.read", `/decisions/${id}/uploads`);
  let overview;
  try {
    overview = await getUploadsOverview(actor, id);
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
  const context: UploadContext = {
    decisionId: overview.id,
    positiveClass: overview.positiveClass,
    candidates: overview.candidates,
    datasetVersions: overview.datasets.flatMap((d) =>
      d.versions.map((v) => ({
        id: v.id,
        label: `${datasetVersionLabel(d.name, v)}${v.id === overview.evaluationDatasetVersionId ? " — the evaluation version" : ""}`,
      })),
    ),
  };
  const frozen = frozenReason(overview);
  const mayImport = can(actor, "evidence.import") && !frozen;
  const evaluation = overview.datasets.flatMap((d) =>
    d.versions.filter((v) => v.id === overview.evaluationDatasetVersionId).map((v) => datasetVersionLabel(d.name, v)),
  )[0];
  return (
    <>
      <p>
        <Link href={`/decisions/${overview.id}`}>← {overview.title}</Link>
      </p>
      <h1>Evidence uploads</h1>
      <p className="muted">
        Every file is validated row by row: a file with any problem is rejected whole and nothing changes. The original
        bytes (or, above 10 MB, their SHA-256 and size) are kept with who imported them and when; uploading the same
        bytes again changes nothing.
      </p>
      {frozen && <p className="message-error">{frozen}</p>}
      <p>
        {evaluation ? (
          <>
            The pack is evaluated on <strong>{evaluation}</strong>; runs on other versions are listed apart and never
            compared with it.
          </>
        ) : (
          "No dataset yet: the first dataset uploaded becomes the version the pack is evaluated on."
        )}
        {can(actor, "decision.edit") && evaluation && (
          <>
            {" "}
            <Link href={`/decisions/${overview.id}/edit#dataset-heading`}>Choose another version</Link>
          </>
        )}
      </p>
      {mayImport && <UploadPanels context={context} />}
      <EvalRunsSection overview={overview} />
      <ImportsSection overview={overview} />
    </>
  );
}
