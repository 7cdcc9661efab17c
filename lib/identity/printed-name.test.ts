import { describe, expect, it } from "vitest";
import { cleanPrintedName, printedNameKey, resemblingName } from "./printed-name";

const REAL = "Amara Approver";
const same = (a: string, b: string) =>
  expect(printedNameKey(a), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(printedNameKey(b));
const differ = (a: string, b: string) => expect(printedNameKey(a)).not.toBe(printedNameKey(b));

describe("printed names compared as people read them", () => {
  it("reads Cyrillic and Greek look-alikes as the Latin letters they imitate", () => {
    same("\u0410mara Approver", REAL); // Cyrillic capital A
    same("Am\u0430r\u0430 \u0410pprover", REAL); // Cyrillic small a
    same("Amara Appr\u043Ev\u0435r", REAL); // Cyrillic o and e
    same("\u0391mara Appr\u03BFver", REAL); // Greek capital Alpha, small omicron
    same("Amara Αpprονer", REAL); // Greek Alpha and nu
    same("Arnara Approver", REAL); // "rn" reads as "m"
    same("Amara Appr0ver", REAL); // digit zero reads as O
  });

  it("removes zero-width and other invisible characters", () => {
    same("Amara\u200B Approver", REAL);
    same("Am\u200Cara Appro\u200Dver", REAL);
    same("\uFEFFAmara Approver\u2060", REAL);
    same("Ama\u00ADra Approver", REAL); // soft hyphen
    same("Amara \u202EApprover", REAL); // bidi override
  });

  it("reads NBSP, doubled and odd spaces as one space", () => {
    same("Amara\u00A0Approver", REAL);
    same("Amara  Approver", REAL);
    same("  Amara \t Approver ", REAL);
    same("Amara\u2003\u3000Approver", REAL);
    differ("AmaraApprover", REAL); // a space a reader sees is kept
  });

  it("folds case and compatibility forms", () => {
    same("AMARA APPROVER", REAL);
    same("amara approver", REAL);
    same("\uFF21mara Approver", REAL); // fullwidth A
    same("Gro\u00DF", "GROSS");
    same("DANA SIGNER-502963B5", "Dana Signer-502963b5");
  });

  it("treats a composed and a decomposed accent as one, and keeps accents significant", () => {
    same("Jos\u00E9 Approver", "Jose\u0301 Approver");
    same("Jose\u0301\u0301 Approver", "Jos\u00E9 Approver"); // a mark doubled on itself reads once
    differ("José Approver", "Jose Approver");
    differ("Amara Approver", "Amara Approves");
  });

  it("names the resembled name; stores a clean name", () => {
    const users = [{ name: "Bo Reviewer" }, { name: REAL }];
    expect(resemblingName("\u0410mara  Appr\u043Ever", users)).toEqual({ name: REAL });
    expect(resemblingName("Amaro Approver", users)).toBeUndefined();
    expect(cleanPrintedName(" Amara\u200B\u00A0 Approver ")).toBe(REAL);
    expect(cleanPrintedName("Jose\u0301")).toBe("Jos\u00E9");
  });
});
