/** The help text of each command. */
import { protocols } from "gateway-protocols";

const ids = protocols.join(", ");

const main = `Usage: gateway-protocols <command> [options]

Translate and validate LLM API payloads (protocols: ${ids}).

Commands:
  translate       translate a request, response or error body        (gateway-protocols translate --help)
  stream          translate an SSE body from stdin as it arrives      (gateway-protocols stream --help)
  validate        check a payload against a protocol's schema        (gateway-protocols validate --help)
  music validate  check a music audio request, print it with defaults (gateway-protocols music validate --help)

Options:
  -h, --help      show help (also after a command)
  --version       print the version

Output is plain JSON when piped and indented, coloured JSON on a terminal (NO_COLOR turns colour off).
Exit codes: 0 success, 1 a strict-mode loss or an invalid payload, 2 invalid input or usage.
`;

const translate = `Usage: gateway-protocols translate --from P --to Q [options] [file|-]

Translates one JSON body from protocol P to protocol Q and prints the result on stdout; each loss
(a field that could not be carried over exactly) is one line on stderr:
  loss <dropped|clamped|synthesized|approximated> <JSON pointer into the input>: <why>

Options:
  --from P        the input's protocol (${ids})
  --to Q          the output's protocol (${ids})
  --kind K        request (default), response or error
  --model M       the model id, for a generative request (its model is in the URL, not the body)
  --stream        a generative request for :streamGenerateContent
  --status N      the HTTP status of an error body (default 500); --kind error prints {"status", "body"}
  --strict        fail on any loss instead of reporting it
  file | -        the JSON body (default: stdin)

Exit codes: 0 translated (losses, if any, on stderr), 1 --strict and a loss, 2 invalid input or usage.

Example:
  echo '{"model":"m","messages":[{"role":"user","content":"hi"}]}' \\
    | gateway-protocols translate --from chat --to messages
`;

const stream = `Usage: gateway-protocols stream --from P --to Q [options]

Translates a server-sent-events body on stdin into protocol Q's SSE body on stdout, each event as
soon as the input that determines it has arrived. Losses go to stderr, one line each, pointing into
the input's list of events (/3/delta/signature: a field of the 4th event). A stream cut off before
its protocol's finish, or holding an event that is not JSON, ends with Q's own error event and a
loss, never a normal stop.

Options:
  --from P        the input stream's protocol (${ids})
  --to Q          the output stream's protocol (${ids})
  --model M       the model id to report where P's events do not carry one
  --strict        end the output at the first loss, with Q's error event (exit 1)

Exit codes: 0 translated, 1 --strict and a loss, 2 usage.

Example (live):
  curl -N https://api.anthropic.com/v1/messages ... | npx gateway-protocols stream --from messages --to chat
`;

const validate = `Usage: gateway-protocols validate --protocol P --kind K [file|-]

Checks a payload against protocol P's schema. Valid: prints "valid" on stdout. Invalid: one line per
issue on stderr, "issue <JSON pointer>: <what was expected>".

Options:
  --protocol P    ${ids}
  --kind K        request, response, event (one stream event), stream (an SSE body: every event),
                  or error (an error body)
  file | -        the payload (default: stdin)

Exit codes: 0 valid, 1 invalid (or not JSON), 2 unreadable input or usage.
`;

const music = `Usage: gateway-protocols music validate [file|-]

Checks a music audio request (POST /music/audios) with the per-model limits. Valid: prints the
request with its defaults filled in (model chirp-v4, action generate). Invalid: prints the error
body the gateway answers with ({"success": false, "error": <code>, "message"}) on stderr.

Exit codes: 0 valid, 1 invalid, 2 unreadable input or usage.
`;

export const help: Readonly<Record<string, string>> = { main, translate, stream, validate, music };
