import "server-only";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { create as createFont, type Font, type Subset } from "fontkit";
import { degrees, type Color, type PDFDocument, type PDFFont, type PDFPage } from "pdf-lib";

/**
 * The PDF's fonts: Unicode TrueType fonts embedded as subsets (only the glyphs used), so π, ≤, ★
 * and printed names in any of Latin, Greek, Cyrillic, Chinese or Japanese print as written and
 * extract as text (pdf-lib writes a ToUnicode map).
 *
 * - DejaVu Sans and DejaVu Sans Bold (npm `dejavu-fonts-ttf`, Bitstream Vera / DejaVu licence;
 *   757 KB and 706 KB): Latin, Greek, Cyrillic, the maths and dingbat symbols the pack uses.
 * - Noto Sans SC Regular and Bold (npm `@expo-google-fonts/noto-sans-sc`, SIL OFL 1.1; 10.6 MB
 *   each): Han ideographs, kana, CJK punctuation and full-width forms, for the characters DejaVu
 *   lacks. Read and embedded only when the pack has such a character.
 *
 * A character neither font has (Hangul, for one) prints as U+FFFD "�" rather than as an empty box.
 * An embedded subset of a CJK name costs a few kilobytes: the PDF never carries a whole font.
 *
 * Subsets are made by fontkit 2: @pdf-lib/fontkit 1.1.1 (pdf-lib's own fork) writes broken glyph
 * data when it subsets a large font such as Noto Sans SC (王 drew, 小 and 明 came out blank).
 * pdf-lib still expects the old streaming `encodeStream()`, which `PDF_FONTKIT` provides.
 */
const FONT_FILES = {
  regular: ["dejavu-fonts-ttf", "ttf", "DejaVuSans.ttf"],
  bold: ["dejavu-fonts-ttf", "ttf", "DejaVuSans-Bold.ttf"],
  cjkRegular: ["@expo-google-fonts", "noto-sans-sc", "400Regular", "NotoSansSC_400Regular.ttf"],
  cjkBold: ["@expo-google-fonts", "noto-sans-sc", "700Bold", "NotoSansSC_700Bold.ttf"],
} as const;
type FontName = keyof typeof FONT_FILES;

const REPLACEMENT = "\uFFFD";

/** fontkit 2 as pdf-lib's `registerFontkit` expects it: subsets encoded through a stream. */
const PDF_FONTKIT = {
  create(bytes: Uint8Array) {
    const font = openFont(bytes);
    const createSubset = font.createSubset.bind(font);
    return Object.assign(font, {
      createSubset: () => {
        const subset: Subset = createSubset();
        return Object.assign(subset, { encodeStream: () => emitOnce(() => subset.encode()) });
      },
    });
  },
} as unknown as Parameters<PDFDocument["registerFontkit"]>[0];

function openFont(bytes: Uint8Array): Font {
  const font = createFont(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (!("createSubset" in font)) throw new Error("A font collection is not a font: name one font file.");
  return font;
}

/** The `.on("data" | "end" | "error")` stream pdf-lib reads a subset from, emitting one chunk. */
function emitOnce(encode: () => Uint8Array) {
  const handlers: Record<string, (value?: unknown) => void> = {};
  const stream = {
    on(event: string, handler: (value?: unknown) => void) {
      handlers[event] = handler;
      return stream;
    },
  };
  queueMicrotask(() => {
    try {
      const bytes = encode();
      handlers.data?.(bytes);
      handlers.end?.();
    } catch (error) {
      handlers.error?.(error);
    }
  });
  return stream;
}

interface Loaded {
  bytes: Uint8Array;
  /** Parsed once per process, to ask which characters the font has. */
  has: (codePoint: number) => boolean;
}

// The files are read once per process (the Noto files are 10 MB each), on first use.
const cache = new Map<FontName, Promise<Loaded>>();
function load(name: FontName): Promise<Loaded> {
  let loaded = cache.get(name);
  if (!loaded) {
    loaded = readFile(path.join(process.cwd(), "node_modules", ...FONT_FILES[name])).then((buffer) => {
      const bytes = new Uint8Array(buffer);
      const font = openFont(bytes);
      const known = new Map<number, boolean>();
      return {
        bytes,
        has: (cp: number) => {
          let v = known.get(cp);
          if (v === undefined) known.set(cp, (v = font.hasGlyphForCodePoint(cp)));
          return v;
        },
      };
    });
    loaded.catch(() => cache.delete(name));
    cache.set(name, loaded);
  }
  return loaded;
}

interface Face {
  primary: PDFFont;
  primaryHas: (cp: number) => boolean;
  fallback: PDFFont | null;
  fallbackHas: (cp: number) => boolean;
}

export interface TextOptions {
  x: number;
  y: number;
  size: number;
  bold?: boolean;
  color?: Color;
  /** Degrees counter-clockwise. */
  rotate?: number;
}

/** Text set in the embedded fonts, each character in the first font that has it. */
export class PdfFonts {
  private constructor(
    private readonly regular: Face,
    private readonly boldFace: Face,
  ) {}

  /**
   * Embeds the fonts in `doc`; `sample` is every text the document may print (the CJK fallback
   * is loaded only when a character of it is missing from DejaVu Sans).
   */
  static async embed(doc: PDFDocument, sample: string): Promise<PdfFonts> {
    doc.registerFontkit(PDF_FONTKIT);
    const [regular, bold] = await Promise.all([load("regular"), load("bold")]);
    const missing = [...new Set(sample)].some(
      (ch) => !regular.has(ch.codePointAt(0)!) || !bold.has(ch.codePointAt(0)!),
    );
    const [cjkRegular, cjkBold] = missing ? await Promise.all([load("cjkRegular"), load("cjkBold")]) : [null, null];
    const face = async (main: Loaded, extra: Loaded | null): Promise<Face> => ({
      primary: await doc.embedFont(main.bytes, { subset: true }),
      primaryHas: main.has,
      fallback: extra ? await doc.embedFont(extra.bytes, { subset: true }) : null,
      fallbackHas: extra ? extra.has : () => false,
    });
    return new PdfFonts(await face(regular, cjkRegular), await face(bold, cjkBold));
  }

  /** The text cut into runs of one font each. */
  runs(text: string, bold = false): Array<{ text: string; font: PDFFont }> {
    const face = bold ? this.boldFace : this.regular;
    const out: Array<{ text: string; font: PDFFont }> = [];
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      let font = face.primary;
      let glyph = ch;
      if (!face.primaryHas(cp)) {
        if (face.fallback && face.fallbackHas(cp)) font = face.fallback;
        else glyph = REPLACEMENT;
      }
      const last = out[out.length - 1];
      if (last && last.font === font) last.text += glyph;
      else out.push({ text: glyph, font });
    }
    return out;
  }

  width(text: string, size: number, bold = false): number {
    return this.runs(text, bold).reduce((sum, r) => sum + r.font.widthOfTextAtSize(r.text, size), 0);
  }

  draw(page: PDFPage, text: string, o: TextOptions): void {
    const angle = ((o.rotate ?? 0) * Math.PI) / 180;
    let { x, y } = o;
    for (const run of this.runs(text, o.bold)) {
      page.drawText(run.text, {
        x,
        y,
        size: o.size,
        font: run.font,
        color: o.color,
        rotate: o.rotate ? degrees(o.rotate) : undefined,
      });
      const w = run.font.widthOfTextAtSize(run.text, o.size);
      x += w * Math.cos(angle);
      y += w * Math.sin(angle);
    }
  }
}
