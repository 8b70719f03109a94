import { describe, expect, it } from "vitest";

import { SseParser } from "./client";

describe("SseParser", () => {
  it("yields an event only once its blank line arrives, across chunks", () => {
    const parser = new SseParser();
    expect(parser.push('event: delta\ndata: {"text"')).toEqual([]);
    expect(parser.push(': "Hi"}\n')).toEqual([]);
    expect(parser.push("\n")).toEqual([{ name: "delta", data: '{"text": "Hi"}' }]);
  });

  it("reads several events from one chunk, with CRLF line ends", () => {
    const events = new SseParser().push(
      "event: meta\r\ndata: 1\r\n\r\nevent: done\r\ndata: 2\r\n\r\n",
    );
    expect(events).toEqual([
      { name: "meta", data: "1" },
      { name: "done", data: "2" },
    ]);
  });

  it("joins multi-line data, skips comments and data-less blocks", () => {
    const events = new SseParser().push(": keep-alive\n\ndata: a\ndata: b\n\n");
    expect(events).toEqual([{ name: "message", data: "a\nb" }]);
  });

  it("keeps a space that belongs to the value", () => {
    expect(new SseParser().push("data:  two spaces\n\n")).toEqual([
      { name: "message", data: " two spaces" },
    ]);
  });
});
