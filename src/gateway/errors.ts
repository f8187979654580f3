/**
 * Error answers of `identifyRequest` (401, 404, 400) in the client's shape: a protocol's shape through
 * the one error table (`errors.render`), or the music API's `{success:false,error,message}`.
 */
import type { ErrorInfo, Protocol } from "../common/model";
import { render } from "../errors";

/** Which error shape a client expects: one of the protocols, or the music API's. */
export type ErrorShape = Protocol | "music";

export type MusicErrorBody = { success: false; error: string; message: string };

/** `{success:false,error:<code>,message}`: the code is `info.code`, else the error kind. */
export function renderMusicError(info: ErrorInfo): { status: number; body: MusicErrorBody } {
  return {
    status: info.status,
    body: { success: false, error: info.code ?? info.kind, message: info.message },
  };
}

/** An error in the given client shape, with the status the gateway chose. */
export function renderError(shape: ErrorShape, info: ErrorInfo): { status: number; body: unknown } {
  return shape === "music" ? renderMusicError(info) : render(shape, info);
}
