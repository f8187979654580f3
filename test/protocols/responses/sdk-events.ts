/**
 * One example of every stream event type in the `openai` SDK's `ResponseStreamEvent` union, written here
 * and typed by the SDK: `tsc` fails if the SDK adds an event type this table lacks, or if an example
 * stops matching the SDK's type. Written for this test, not recorded (the recordings are in fixtures/).
 */
import type OpenAI from "openai";

type SdkEvent = OpenAI.Responses.ResponseStreamEvent;
type SdkResponse = OpenAI.Responses.Response;

const response: SdkResponse = {
  id: "resp_1",
  object: "response",
  created_at: 1,
  model: "gpt-test",
  output: [],
  output_text: "",
  error: null,
  incomplete_details: null,
  instructions: null,
  metadata: null,
  parallel_tool_calls: true,
  temperature: null,
  tool_choice: "auto",
  tools: [],
  top_p: null,
  status: "in_progress",
};

const at = { item_id: "it_1", output_index: 0, sequence_number: 3 } as const;
const part = { ...at, content_index: 0 } as const;
const summary = { ...at, summary_index: 0 } as const;

export const sdkEvents: { [T in SdkEvent["type"]]: Extract<SdkEvent, { type: T }> } = {
  "response.audio.delta": { type: "response.audio.delta", delta: "AAA=", sequence_number: 1 },
  "response.audio.done": { type: "response.audio.done", sequence_number: 1 },
  "response.audio.transcript.delta": {
    type: "response.audio.transcript.delta",
    delta: "hi",
    sequence_number: 1,
  },
  "response.audio.transcript.done": { type: "response.audio.transcript.done", sequence_number: 1 },
  "response.code_interpreter_call_code.delta": {
    type: "response.code_interpreter_call_code.delta",
    delta: "print(",
    ...at,
  },
  "response.code_interpreter_call_code.done": {
    type: "response.code_interpreter_call_code.done",
    code: "print(1)",
    ...at,
  },
  "response.code_interpreter_call.completed": { type: "response.code_interpreter_call.completed", ...at },
  "response.code_interpreter_call.in_progress": { type: "response.code_interpreter_call.in_progress", ...at },
  "response.code_interpreter_call.interpreting": {
    type: "response.code_interpreter_call.interpreting",
    ...at,
  },
  "response.completed": {
    type: "response.completed",
    sequence_number: 9,
    response: {
      ...response,
      status: "completed",
      output: [
        {
          type: "message",
          id: "msg_1",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "Hi", annotations: [] }],
        },
      ],
      usage: {
        input_tokens: 5,
        input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
        output_tokens: 1,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 6,
      },
    },
  },
  "response.content_part.added": {
    type: "response.content_part.added",
    part: { type: "output_text", text: "", annotations: [] },
    ...part,
  },
  "response.content_part.done": {
    type: "response.content_part.done",
    part: { type: "reasoning_text", text: "so" },
    ...part,
  },
  "response.created": { type: "response.created", response, sequence_number: 0 },
  error: { type: "error", code: "server_error", message: "boom", param: null, sequence_number: 4 },
  "response.file_search_call.completed": { type: "response.file_search_call.completed", ...at },
  "response.file_search_call.in_progress": { type: "response.file_search_call.in_progress", ...at },
  "response.file_search_call.searching": { type: "response.file_search_call.searching", ...at },
  "response.function_call_arguments.delta": {
    type: "response.function_call_arguments.delta",
    delta: '{"a"',
    ...at,
  },
  "response.function_call_arguments.done": {
    type: "response.function_call_arguments.done",
    arguments: '{"a":1}',
    name: "f",
    ...at,
  },
  "response.in_progress": { type: "response.in_progress", response, sequence_number: 1 },
  "response.failed": {
    type: "response.failed",
    response: { ...response, status: "failed", error: { code: "server_error", message: "boom" } },
    sequence_number: 5,
  },
  "response.incomplete": {
    type: "response.incomplete",
    response: { ...response, status: "incomplete", incomplete_details: { reason: "max_output_tokens" } },
    sequence_number: 5,
  },
  "response.output_item.added": {
    type: "response.output_item.added",
    output_index: 0,
    sequence_number: 2,
    item: { type: "reasoning", id: "rs_1", summary: [] },
  },
  "response.output_item.done": {
    type: "response.output_item.done",
    output_index: 0,
    sequence_number: 8,
    item: {
      type: "function_call",
      id: "fc_1",
      call_id: "call_1",
      name: "f",
      arguments: "{}",
      status: "completed",
    },
  },
  "response.reasoning_summary_part.added": {
    type: "response.reasoning_summary_part.added",
    part: { type: "summary_text", text: "" },
    ...summary,
  },
  "response.reasoning_summary_part.done": {
    type: "response.reasoning_summary_part.done",
    part: { type: "summary_text", text: "Thinking" },
    ...summary,
  },
  "response.reasoning_summary_text.delta": {
    type: "response.reasoning_summary_text.delta",
    delta: "Think",
    ...summary,
  },
  "response.reasoning_summary_text.done": {
    type: "response.reasoning_summary_text.done",
    text: "Thinking",
    ...summary,
  },
  "response.reasoning_text.delta": { type: "response.reasoning_text.delta", delta: "so", ...part },
  "response.reasoning_text.done": { type: "response.reasoning_text.done", text: "so", ...part },
  "response.refusal.delta": { type: "response.refusal.delta", delta: "No", ...part },
  "response.refusal.done": { type: "response.refusal.done", refusal: "No.", ...part },
  "response.output_text.delta": {
    type: "response.output_text.delta",
    delta: "Hi",
    logprobs: [{ token: "Hi", logprob: -0.1, top_logprobs: [{ token: "Hi", logprob: -0.1 }] }],
    ...part,
  },
  "response.output_text.done": { type: "response.output_text.done", text: "Hi", logprobs: [], ...part },
  "response.web_search_call.completed": { type: "response.web_search_call.completed", ...at },
  "response.web_search_call.in_progress": { type: "response.web_search_call.in_progress", ...at },
  "response.web_search_call.searching": { type: "response.web_search_call.searching", ...at },
  "response.image_generation_call.completed": { type: "response.image_generation_call.completed", ...at },
  "response.image_generation_call.generating": { type: "response.image_generation_call.generating", ...at },
  "response.image_generation_call.in_progress": { type: "response.image_generation_call.in_progress", ...at },
  "response.image_generation_call.partial_image": {
    type: "response.image_generation_call.partial_image",
    partial_image_b64: "iVBORw0KGgo=",
    partial_image_index: 0,
    ...at,
  },
  "response.mcp_call_arguments.delta": { type: "response.mcp_call_arguments.delta", delta: "{", ...at },
  "response.mcp_call_arguments.done": { type: "response.mcp_call_arguments.done", arguments: "{}", ...at },
  "response.mcp_call.completed": { type: "response.mcp_call.completed", ...at },
  "response.mcp_call.failed": { type: "response.mcp_call.failed", ...at },
  "response.mcp_call.in_progress": { type: "response.mcp_call.in_progress", ...at },
  "response.mcp_list_tools.completed": { type: "response.mcp_list_tools.completed", ...at },
  "response.mcp_list_tools.failed": { type: "response.mcp_list_tools.failed", ...at },
  "response.mcp_list_tools.in_progress": { type: "response.mcp_list_tools.in_progress", ...at },
  "response.output_text.annotation.added": {
    type: "response.output_text.annotation.added",
    annotation: {
      type: "url_citation",
      url: "https://example.org",
      title: "E",
      start_index: 0,
      end_index: 2,
    },
    annotation_index: 0,
    ...part,
  },
  "response.queued": {
    type: "response.queued",
    response: { ...response, status: "queued" },
    sequence_number: 1,
  },
  "response.custom_tool_call_input.delta": {
    type: "response.custom_tool_call_input.delta",
    delta: "SEL",
    ...at,
  },
  "response.custom_tool_call_input.done": {
    type: "response.custom_tool_call_input.done",
    input: "SELECT 1",
    ...at,
  },
};
