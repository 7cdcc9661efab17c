import { describe, expect, it } from "vitest";
import { SseParser } from "./sse";

const parse = (chunks: string[]) => {
  const out: string[] = [];
  const p = new SseParser((d) => out.push(d));
  for (const c of chunks) p.feed(c);
  return out;
};

describe("SseParser", () => {
  it("cuts events out of chunks split anywhere, LF, CRLF and CR alike", () => {
    const text =
      'data: {"a":1}\n\ndata:{"b":2}\r\n\r\n: comment\nevent: x\nid: 7\ndata: line one\ndata:  two\n\ndata: [DONE]\r\r';
    const expected = ['{"a":1}', '{"b":2}', "line one\n two", "[DONE]"];
    expect(parse([text])).toEqual(expected);
    for (let cut = 1; cut < text.length; cut++) expect(parse([text.slice(0, cut), text.slice(cut)])).toEqual(expected);
    expect(parse(text.split(""))).toEqual(expected);
  });

  it("dispatches nothing for a block without data, and keeps an unfinished event", () => {
    expect(parse(["event: ping\n\n", "data: half"])).toEqual([]);
    expect(parse(["data\n\n"])).toEqual([""]);
  });
});
