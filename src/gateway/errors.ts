/**
 * Error answers of `identifyRequest` (401, 404, 400) in the client's shape: the three protocols'
 * own encoders, plus the music API's `{success:false,error,message}`.
 * @see research/edge-cases.md E1–E3; ../../../shared/spec/music-interface.md section 7
 */
import type { ErrorInfo } from "../common/model";
import { encodeChatError } from "../protocols/chat/error";
import { encodeGenerativeError } from "../protocols/generative/error";
import { encodeMessagesError } from "../protocols/messages/error";

/** Which error shape a client expects: one of the three protocols, or the music API's. */
export type ErrorShape = "chat" | "messages" | "generative" | "music";

export type MusicErrorBody = { success: false; error: string; message: string };

/** `{success:false,error:<code>,message}`: the code is `info.code`, else the error kind. */
export function renderMusicError(info: ErrorInfo): { status: number; body: MusicErrorBody } {
  return {
    status: info.status,
    body: { success: false, error: info.code ?? info.kind, message: info.message },
  };
}

/** An error in the given client shape. */
export function renderError(shape: ErrorShape, info: ErrorInfo): { status: number; body: unknown } {
  switch (shape) {
    case "chat":
      return encodeChatError(info);
    case "messages":
      return encodeMessagesError(info);
    case "generative":
      return encodeGenerativeError(info);
    case "music":
      return renderMusicError(info);
  }
}
