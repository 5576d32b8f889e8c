/**
 * A real HTTP server on loopback speaking the OpenAI chat-completions protocol, scripted by each test: it
 * records what the service sent and answers as told (a rewrite of the draft it was given, an error, a slow
 * answer, or none at all). Used by unit tests of the client and by integration suites via LLM_BASE_URL.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { SECTION_LABEL, TEXT_LABEL } from '../../src/skills/model-rewrite';

export interface LlmRequest {
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: {
    model?: string;
    messages?: { role: string; content: string }[];
    response_format?: unknown;
    temperature?: number;
    stream?: boolean;
  };
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** JSON body (default: none). */
  body?: unknown;
  /** Answer only after this long; a client that gives up first counts as aborted. */
  delayMs?: number;
  /**
   * Never finish: only the client can end the request. Asked to stream, the server "generates" meanwhile (a
   * token every 50 ms, as llama.cpp's server does) and stops when the client closes the connection.
   */
  hang?: boolean;
}

/** `index` counts the requests this handler has seen, from 0. */
export type Handler = (request: LlmRequest, index: number) => Reply | Promise<Reply>;

export interface FakeLlm {
  baseUrl: string;
  requests: LlmRequest[];
  /** Requests whose client went away before an answer was sent. */
  readonly aborted: number;
  /** Requests waiting for an answer right now. */
  readonly pending: number;
  /** Tokens "generated" for streams that hang, in all: it stops growing once their clients have gone. */
  readonly generated: number;
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const requests: LlmRequest[] = [];
  let handler: Handler = () => ({ status: 500, body: { error: { message: 'no handler set' } } });
  let seen = 0;
  let aborted = 0;
  let pending = 0;
  let generated = 0;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request: LlmRequest = {
        at: Date.now(),
        path: req.url ?? '',
        headers: req.headers,
        body: text ? (JSON.parse(text) as LlmRequest['body']) : {},
      };
      requests.push(request);
      pending += 1;
      let answered = false;
      res.on('close', () => {
        pending -= 1;
        if (!answered) aborted += 1;
      });
      void Promise.resolve(handler(request, seen++)).then((reply) => {
        if (reply.hang) {
          if (request.body.stream) {
            res.writeHead(200, { 'Content-Type': 'text/event-stream' });
            const tick = setInterval(() => {
              if (res.destroyed) return clearInterval(tick);
              generated += 1;
              res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: ' ' } }] })}\n\n`);
            }, 50);
            res.on('close', () => clearInterval(tick));
          }
          return;
        }
        const send = () => {
          if (res.destroyed) return;
          answered = true;
          if (request.body.stream && (reply.status ?? 200) === 200) sendStream(res, reply);
          else send200(res, reply);
        };
        if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
        else send();
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    get aborted() {
      return aborted;
    },
    get pending() {
      return pending;
    },
    get generated() {
      return generated;
    },
    handle(next) {
      handler = next;
      seen = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

function send200(res: ServerResponse, reply: Reply): void {
  const body = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  res.writeHead(reply.status ?? 200, { 'Content-Type': 'application/json', ...(reply.headers ?? {}) });
  res.end(body);
}

/** A 200 chat-completions answer sent as Server-Sent Events, its content in a few chunks, as a streaming server does. */
function sendStream(res: ServerResponse, reply: Reply): void {
  const body = reply.body as { choices?: { message?: { content?: string } }[] } | undefined;
  const content = body?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') return send200(res, reply);
  res.writeHead(200, { 'Content-Type': 'text/event-stream', ...(reply.headers ?? {}) });
  const size = Math.max(1, Math.ceil(content.length / 4));
  for (let i = 0; i < content.length; i += size)
    res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: content.slice(i, i + size) } }] })}\n\n`);
  res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
  res.end('data: [DONE]\n\n');
}

/** A chat-completions answer carrying `content`. */
export function chatAnswer(content: string, model = 'fake-model'): Reply {
  return {
    body: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    },
  };
}

export interface SentSection {
  heading: string;
  /** The section's markdown with its citation markers. */
  markdown: string;
}

/** The section the service asked the model to rewrite (one request per section). */
export function sectionOf(request: LlmRequest): SentSection {
  const user = request.body.messages?.find((m) => m.role === 'user');
  if (!user) throw new Error('no user message');
  // The service's user message: "Section: <heading>", then "Text to rewrite:" and the text (sectionMessages).
  const [first, label, ...text] = user.content.split('\n');
  if (!first?.startsWith(SECTION_LABEL) || label !== TEXT_LABEL) throw new Error(`not a section request: ${user.content.slice(0, 80)}`);
  return { heading: first.slice(SECTION_LABEL.length), markdown: text.join('\n') };
}

/** A model answer rewriting the section it was sent: `edit` changes its markdown (by default, adds a framing sentence the checks accept). */
export function rewrite(
  request: LlmRequest,
  edit: (markdown: string, heading: string) => string = (m) => `${m}\n\nHere is what changed.`,
): Reply {
  const section = sectionOf(request);
  return chatAnswer(JSON.stringify({ markdown: edit(section.markdown, section.heading) }));
}
