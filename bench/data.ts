import { closeSync, existsSync, mkdirSync, openSync, readSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Xoshiro128 } from "../lib/metrics/random";

export const OUT_DIR = path.resolve(import.meta.dirname, "out");

export interface BenchData {
  labels: Uint8Array;
  scores: Float64Array;
}

export function dataFiles(n: number): { labels: string; scores: string } {
  return { labels: path.join(OUT_DIR, `labels-${n}.u8`), scores: path.join(OUT_DIR, `scores-${n}.f64`) };
}

/**
 * n items, 3% positives, scores = logistic(z + 1.5·y) with z ~ N(0, 1) from a seeded
 * xoshiro128** stream (Box-Muller): nearly every score distinct. Written as raw Uint8 labels
 * and little-endian Float64 scores, read by both this engine and numpy (`np.fromfile`).
 */
export function ensureData(n: number, seed = 42): { labels: string; scores: string } {
  const files = dataFiles(n);
  if (existsSync(files.labels) && existsSync(files.scores)) return files;
  mkdirSync(OUT_DIR, { recursive: true });
  const rng = new Xoshiro128(seed ^ n);
  const labels = new Uint8Array(n);
  const scores = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const y = rng.nextDouble() < 0.03 ? 1 : 0;
    const u = 1 - rng.nextDouble();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.nextDouble());
    labels[i] = y;
    scores[i] = 1 / (1 + Math.exp(-(z + 1.5 * y)));
  }
  writeFileSync(files.labels, labels);
  writeFileSync(files.scores, new Uint8Array(scores.buffer));
  return files;
}

/** Read the raw files straight into the typed arrays (no intermediate buffers to inflate RSS). */
export function loadData(n: number): BenchData {
  const files = dataFiles(n);
  const labels = new Uint8Array(n);
  const scores = new Float64Array(n);
  readInto(files.labels, labels);
  readInto(files.scores, new Uint8Array(scores.buffer));
  return { labels, scores };
}

function readInto(file: string, target: Uint8Array): void {
  const fd = openSync(file, "r");
  try {
    let offset = 0;
    while (offset < target.length) {
      const read = readSync(fd, target, offset, target.length - offset, offset);
      if (read === 0) throw new Error(`${file} is shorter than expected`);
      offset += read;
    }
  } finally {
    closeSync(fd);
  }
}
