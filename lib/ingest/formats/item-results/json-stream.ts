import { JSONParser } from "@streamparser/json";
import type { ByteSource } from "../../byte-source";
import { READ_BYTES } from "../../records";

/** A value at one of the paths asked for: `at` is its keys from the root (`["samples", 3]`). */
export type JsonAt = { at: (string | number)[]; value: unknown } | { error: string };

/**
 * The values at `paths` (`$.version`, `$.samples.*`) of one JSON document, one chunk of the file
 * at a time (@streamparser/json): a document of 1 GB is never held whole, only the value being
 * built. A syntax error or a document cut short ends the stream with an error.
 */
export async function* streamJsonValues(source: ByteSource, paths: string[]): AsyncGenerator<JsonAt> {
  // keepStack false: an emitted sample is dropped from its array, so memory stays flat.
  const parser = new JSONParser({ paths, keepStack: false });
  let found: JsonAt[] = [];
  parser.onValue = ({ value, key, stack }) => {
    const at = stack.slice(1).map((s) => s.key as string | number);
    found.push({ at: key === undefined ? at : [...at, key], value });
  };
  try {
    for await (const chunk of source.chunks(READ_BYTES)) {
      parser.write(chunk);
      yield* found;
      found = [];
    }
    if (!parser.isEnded) parser.end();
    yield* found;
  } catch (error) {
    yield* found;
    yield { error: error instanceof Error ? error.message : String(error) };
  }
}
