/**
 * A chat client cannot tell the dialects apart where they agree: the AI SDK's chat provider, served a
 * response translated to chat in any `chatDialect`, reports the same text, client tool calls and finish
 * reason as it does for the default (`openai`) translation of the same upstream body.
 */
import { describe, expect, test } from "vitest";
import type { ChatDialect } from "../../src/common/options";
import { translateResponse } from "../../src/index";
import { readFixture, wiredFixtures } from "../helpers/fixtures";
import { generateView } from "./helpers";

const dialects: ChatDialect[] = ["compatible", "deepseek", "openrouter", "qwen", "vllm"];

describe("a response translated to chat reads the same in every dialect", () => {
  for (const entry of wiredFixtures("response").filter((item) => item.protocol !== "chat")) {
    test(entry.path, async () => {
      const body = JSON.parse(readFixture(entry));
      const view = async (chatDialect: ChatDialect) =>
        generateView(
          "chat",
          JSON.stringify(translateResponse(entry.protocol, "chat", body, { created: 1, chatDialect }).value),
        );
      const expected = await view("openai");
      for (const dialect of dialects) expect(await view(dialect), dialect).toEqual(expected);
    });
  }
});
