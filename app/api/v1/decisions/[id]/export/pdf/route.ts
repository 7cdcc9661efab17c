import { exportPackPdf } from "@/lib/server/pack/export";
import { apiRoute } from "@/lib/server/route";

type Params = { id: string };

/** The evidence pack as a PDF for the meeting (audited as export.pdf). */
export const GET = apiRoute<Params>("decision.read", async ({ actor, params, request }) => {
  const { bytes } = await exportPackPdf(actor, params.id, request);
  return new Response(Buffer.from(bytes), {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="verdict-pack-${params.id}.pdf"`,
      "cache-control": "no-store",
    },
  });
});
