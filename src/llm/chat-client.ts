/**
 * A small client for any OpenAI-compatible chat-completions endpoint (OpenAI, Azure OpenAI's compatible
 * route, vLLM, Ollama, llama.cpp server, LiteLLM...): one POST, JSON mode, temperature 0 so the same
 * prompt tends to give the same answer; the answer's shape is asked for with `response_format` (a JSON schema where
 * the server supports it, else JSON mode). The answer is streamed (`stream: true`): a call given up on (its timeout,
 * a cancellation) closes the connection mid-generation, and a server that generates while streaming stops when its
 * client goes (llama.cpp's servers do; without streaming they generate to the end for nobody). A server that
 * answers with one JSON body instead is read as before. Failures are typed for Temporal's retry policy (see failures.ts).
 */
import type { ChatMessage } from '../skills/model-rewrite';
import { connectionFailure, httpFailure, malformedFailure, timeoutFailure } from './failures';
import { parseRetryAfter } from './retry-after';

export interface ChatModelOptions {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  timeoutMs: number;
}

/** OpenAI's `response_format`: JSON mode, or output constrained to a JSON schema. */
export type ResponseFormat =
  { type: 'json_object'; schema?: object } | { type: 'json_schema'; json_schema: { name: string; schema: object; strict?: boolean } };

export interface ChatModel {
  readonly model: string;
  /**
   * The assistant message's text. Rejects with the caller's abort reason when `signal` aborts (cancellation
   * is not a model failure), else with an ApplicationFailure from failures.ts.
   */
  complete(
    messages: readonly ChatMessage[],
    options: { signal: AbortSignal; timeoutMs?: number; responseFormat?: ResponseFormat; maxTokens?: number },
  ): Promise<string>;
}

/** A chat-completions answer larger than this is not read to the end: no rewrite of a draft is that long. */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

class TooLarge extends Error {}

/** The body as text, refusing to hold more than `max` bytes of it. */
async function readBounded(res: Response, max: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new TooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function createChatModel(options: ChatModelOptions): ChatModel {
  let base = options.baseUrl;
  while (base.endsWith('/')) base = base.slice(0, -1);
  const url = `${base}/chat/completions`;
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (options.apiKey) headers.Authorization = `Bearer ${options.apiKey}`;

  return {
    model: options.model,
    async complete(messages, { signal, timeoutMs = options.timeoutMs, responseFormat = { type: 'json_object' }, maxTokens }) {
      const timeout = AbortSignal.timeout(timeoutMs);
      // max_tokens bounds a generation that does not stop by itself (small models may repeat until the context is full).
      const body = JSON.stringify({
        model: options.model,
        messages,
        response_format: responseFormat,
        temperature: 0,
        ...(maxTokens ? { max_tokens: maxTokens } : {}),
        stream: true,
      });
      let status: number;
      let retryAfter: string | null;
      let text: string;
      let streamed = false;
      try {
        // The body read is under the same signals: a server that stalls mid-answer times out too, and the abort
        // closes the connection, which is what stops a streaming server's generation.
        const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.any([signal, timeout]) });
        status = res.status;
        retryAfter = res.headers.get('retry-after');
        streamed = (res.headers.get('content-type') ?? '').includes('text/event-stream');
        text = await readBounded(res, MAX_RESPONSE_BYTES);
      } catch (err) {
        if (err instanceof TooLarge) throw malformedFailure(`is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB`);
        if (signal.aborted) throw signal.reason ?? err;
        if (timeout.aborted) throw timeoutFailure(timeoutMs);
        throw connectionFailure(err);
      }
      if (status < 200 || status > 299) throw httpFailure(status, parseRetryAfter(retryAfter, Date.now()));
      return streamed ? contentOfStream(text) : contentOf(text);
    },
  };
}

/**
 * The content of a streamed answer: the `choices[0].delta.content` of each `data:` event, joined, up to
 * `data: [DONE]`. A line that is not JSON is malformed; an answer with no content at all too.
 */
function contentOfStream(text: string): string {
  let content = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '[DONE]') break;
    const delta = firstChoice<{ delta?: { content?: unknown } }>(data, 'has an event that is not JSON')?.delta?.content;
    if (typeof delta === 'string') content += delta;
  }
  if (content === '') throw malformedFailure('has no choices[0].delta.content');
  return content;
}

/** `choices[0].message.content` of a chat-completions answer. */
function contentOf(text: string): string {
  const content = firstChoice<{ message?: { content?: unknown } }>(text, 'is not JSON')?.message?.content;
  if (typeof content !== 'string' || content === '') throw malformedFailure('has no choices[0].message.content');
  return content;
}

/** `choices[0]` of a chat-completions JSON text (an answer or a streamed event); malformed when it is not JSON. */
function firstChoice<T>(json: string, notJson: string): T | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw malformedFailure(notJson);
  }
  const choices = (parsed as { choices?: unknown } | null)?.choices;
  return Array.isArray(choices) ? (choices[0] as T | undefined) : undefined;
}
