/**
 * Type tests (checked by `tsc --noEmit`) of the issue-12 surface (API.md "Translation", "Streams"):
 * `onLoss` in the options, `losses` from translateError, createTranslateStream as a TransformStream.
 */
import {
  createStreamTranslator,
  createTranslateStream,
  type Loss,
  type TranslateOptions,
  translateError,
  type translateEventStream,
} from "../../src/index";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const check = <T extends true>(): T => true as T;

check<Equal<NonNullable<TranslateOptions["onLoss"]>, (loss: Loss) => void>>();
check<Equal<ReturnType<typeof createTranslateStream>, TransformStream<Uint8Array, Uint8Array>>>();
check<Equal<ReturnType<typeof translateError<"chat", "messages">>["losses"], Loss[]>>();
check<Equal<ReturnType<typeof translateEventStream>, ReadableStream<Uint8Array>>>();

// A body pipes through it, and the options take onLoss at every level.
declare const body: ReadableStream<Uint8Array>;
const piped: ReadableStream<Uint8Array> = body.pipeThrough(
  createTranslateStream("messages", "chat", { onLoss: (loss) => loss.path }),
);
void piped;
createStreamTranslator("chat", "generative", { strict: true, onLoss: (loss: Loss) => void loss.kind });
translateError("generative", "chat", { status: 500, body: {} }, { onLoss: (loss) => void loss.message });
