import path from "node:path";
import { fileSource } from "../../lib/files/file-source.ts";
import { detectItemResultFormat } from "../../lib/ingest/formats/item-results/index.ts";
import type { ToolItem } from "../../lib/ingest/formats/item-results/types.ts";
import { db } from "../../lib/server/db.ts";
import { makeActor, makeDecision, unique } from "../factories.ts";
import { collect, EXTERNAL } from "./sources.ts";

// Test-only: decisions whose dataset version is built from a fixture's own ids and gold labels, so
// an import of the fixture through the server is checked on its mapping and its metrics.

export const fixturePath = (relative: string) => path.join(EXTERNAL, relative);

/** The fixture's items as the parser reads them (partners found beside it, as on upload). */
export async function parsedItems(relative: string, partnerFiles: string[] = []): Promise<ToolItem[]> {
  const file = fixturePath(relative);
  const source = fileSource(file);
  const parser = detectItemResultFormat(Buffer.from(await source.head(65536)), path.basename(file));
  if (!parser) throw new Error(`not detected: ${relative}`);
  const partners: Record<string, ReturnType<typeof fileSource>> = {};
  for (const p of parser.partners ?? [])
    for (const other of partnerFiles) {
      const s = fileSource(fixturePath(other));
      if (p.detect(Buffer.from(await s.head(65536)), path.basename(other)) > 0) partners[p.role] = s;
    }
  return (await collect(parser.read(source, { fileName: path.basename(file), partners }))).items;
}

export interface TestItem {
  itemId: string;
  label: boolean;
  text?: string | null;
}

/** An analyst's decision with the named candidates and one dataset version of these items, in this order. */
export async function decisionWithDataset(items: TestItem[], candidateNames: string[] = ["Model A"]) {
  const analyst = await makeActor(["ANALYST"]);
  const { id: decisionId } = await makeDecision(analyst);
  const prisma = await db();
  const candidates: { id: string; name: string }[] = [];
  for (const name of candidateNames)
    candidates.push(
      await prisma.candidate.create({ data: { decisionId, name, provider: "test" }, select: { id: true, name: true } }),
    );
  const dataset = await prisma.dataset.create({ data: { decisionId, name: unique("ds") }, select: { id: true } });
  const version = await prisma.datasetVersion.create({
    data: {
      datasetId: dataset.id,
      version: 1,
      itemCount: items.length,
      positiveCount: items.filter((i) => i.label).length,
    },
    select: { id: true },
  });
  // One statement, rows in the given order: positional ids read the dataset in its stored order.
  await prisma.datasetItem.createMany({
    data: items.map((i) => ({ datasetVersionId: version.id, itemId: i.itemId, label: i.label, text: i.text ?? null })),
  });
  return { analyst, decisionId, candidates, candidateId: candidates[0]!.id, datasetVersionId: version.id };
}
