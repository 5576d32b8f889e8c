/**
 * A small client for any OpenAI-compatible chat-completions endpoint (OpenAI, Azure OpenAI's compatible
 * route, vLLM, Ollama, llama.cpp server, LiteLLM...): one POST, JSON mode, temperature 0 so the same
 * prompt tends to give the same answer. Failures are typed for Temporal's retry policy (see failures.ts).
 */
import type { ChatMessage } from '../skills/llm-prompt';
import { connectionFailure, httpFailure, malformedFailure, timeoutFailure } from './failures';
import { parseRetryAfter } from './retry-after';

export interface ChatModelOptions {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  timeoutMs: number;
}

export interface ChatModel {
  readonly model: string;
  /**
   * The assistant message's text. Rejects with the caller's abort reason when `signal` aborts (cancellation
   * is not a model failure), else with an ApplicationFailure from failures.ts.
   */
  complete(messages: readonly ChatMessage[], options: { signal: AbortSignal; timeoutMs?: number }): Promise<string>;
}

export function createChatModel(options: ChatModelOptions): ChatModel {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (options.apiKey) headers.Authorization = `Bearer ${options.apiKey}`;

  return {
    model: options.model,
    async complete(messages, { signal, timeoutMs = options.timeoutMs }) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const body = JSON.stringify({ model: options.model, messages, response_format: { type: 'json_object' }, temperature: 0 });
      let status: number;
      let retryAfter: string | null;
      let text: string;
      try {
        // The body read is under the same signals: a server that stalls mid-answer times out too.
        const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.any([signal, timeout]) });
        status = res.status;
        retryAfter = res.headers.get('retry-after');
        text = await res.text();
      } catch (err) {
        if (signal.aborted) throw signal.reason ?? err;
        if (timeout.aborted) throw timeoutFailure(timeoutMs);
        throw connectionFailure(err);
      }
      if (status < 200 || status > 299) throw httpFailure(status, parseRetryAfter(retryAfter, Date.now()));
      return contentOf(text);
    },
  };
}

/** `choices[0].message.content` of a chat-completions answer. */
function contentOf(text: string): string {
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw malformedFailure('is not JSON');
  }
  const choices = (answer as { choices?: unknown } | null)?.choices;
  const content = Array.isArray(choices) ? (choices[0] as { message?: { content?: unknown } } | undefined)?.message?.content : undefined;
  if (typeof content !== 'string' || content === '') throw malformedFailure('has no choices[0].message.content');
  return content;
}
