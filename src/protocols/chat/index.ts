/** The `chat` namespace: chat-completions schemas, their types and `DONE`, nothing else. */
export * from "./schema";
