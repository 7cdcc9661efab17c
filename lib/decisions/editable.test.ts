import { describe, expect, it } from "vitest";
import { frozenReason, isEditable, isSubmittable, type DecisionStatusName } from "./editable";

const d = (status: DecisionStatusName, archivedAt: Date | null = null) => ({ status, archivedAt });

describe("the editability rule", () => {
  it("lets a draft change, and nothing else", () => {
    expect(isEditable(d("DRAFT"))).toBe(true);
    expect(isEditable(d("CHANGES_REQUESTED"))).toBe(true);
    for (const status of ["IN_REVIEW", "APPROVED", "REJECTED"] as const) {
      expect(isEditable(d(status))).toBe(false);
      expect(frozenReason(d(status))).toMatch(/frozen/);
    }
  });

  it("freezes an archived decision whatever its status, and says how to undo it", () => {
    expect(isEditable(d("DRAFT", new Date()))).toBe(false);
    expect(frozenReason(d("DRAFT", new Date()))).toMatch(/archived: restore it/);
    expect(frozenReason(d("DRAFT"))).toBeNull();
  });

  it("submits a draft, or a closed decision only when its evidence changed, never an archived one", () => {
    expect(isSubmittable(d("DRAFT"), false)).toBe(true);
    expect(isSubmittable(d("APPROVED"), false)).toBe(false);
    expect(isSubmittable(d("APPROVED"), true)).toBe(true);
    expect(isSubmittable(d("REJECTED"), true)).toBe(true);
    expect(isSubmittable(d("IN_REVIEW"), true)).toBe(false);
    expect(isSubmittable(d("APPROVED", new Date()), true)).toBe(false);
  });
});
