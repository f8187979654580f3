import type { Protocol } from "../common/model";
import type { ProtocolAdapter } from "./adapter";
import { chatAdapter } from "./chat/adapter";
import { generativeAdapter } from "./generative/adapter";
import { messagesAdapter } from "./messages/adapter";

/** The one lookup table of protocols; a fourth protocol is one more folder and one more line here. */
export const adapters: Record<Protocol, ProtocolAdapter<unknown, unknown, unknown, unknown>> = {
  chat: chatAdapter as ProtocolAdapter<unknown, unknown, unknown, unknown>,
  messages: messagesAdapter as ProtocolAdapter<unknown, unknown, unknown, unknown>,
  generative: generativeAdapter as ProtocolAdapter<unknown, unknown, unknown, unknown>,
};

export const protocols: readonly Protocol[] = ["chat", "messages", "generative"];
