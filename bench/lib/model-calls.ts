/**
 * A loopback pass-through between the service and the model server that writes down every chat call: when
 * it was sent, when the service stopped waiting (its answer, or its own timeout closing the connection), and
 * when the model actually finished, with the token counts and the head of the answer. A model that falls back
 * shows here why (an answer of the wrong shape, or one still being generated when the service gave up), and
 * a call the service abandoned shows how long the server kept generating it for nobody.
 */
import { request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, listen } from './service';
import { nowMs } from './stats';

export interface ModelCall {
  startedAt: number;
  /** When the service had its answer or closed the connection (a timeout); null while it waits. */
  clientDoneAt: number | null;
  clientAborted: boolean;
  /** When the model server answered (possibly long after the service stopped waiting). */
  upstreamDoneAt: number | null;
  status: number | null;
  promptTokens: number | null;
  completionTokens: number | null;
  finishReason: string | null;
  /** The first characters of the answer's content (of the whole body when it has no content: an error). */
  contentHead: string | null;
}

export interface ModelCallRecorder {
  /** What LLM_BASE_URL takes instead of the model server's own. */
  baseUrl: string;
  calls: ModelCall[];
  /** Sends later calls to another model server (a restarted one). */
  retarget(upstream: string): void;
  close(): Promise<void>;
}

const HEAD_CHARS = 400;

/** A streamed answer (Server-Sent Events) as one chat-completions body: its deltas joined, its last finish and usage. */
function joinStream(text: string): string {
  let content = '';
  let finish: string | null = null;
  let usage: unknown = undefined;
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:') || line.includes('[DONE]')) continue;
    try {
      const event = JSON.parse(line.slice(5)) as {
        choices?: { delta?: { content?: string }; finish_reason?: string | null }[];
        usage?: unknown;
      };
      content += event.choices?.[0]?.delta?.content ?? '';
      finish = event.choices?.[0]?.finish_reason ?? finish;
      usage = event.usage ?? usage;
    } catch {
      /* a cut line at the end of an abandoned stream */
    }
  }
  return JSON.stringify({ usage, choices: [{ finish_reason: finish ?? 'abandoned', message: { content } }] });
}

function summarize(call: ModelCall, status: number, text: string): void {
  call.status = status;
  if (text.startsWith('data:')) text = joinStream(text);
  try {
    const body = JSON.parse(text) as {
      usage?: { prompt_tokens?: number; completion_tokens?: number };
      choices?: { finish_reason?: string; message?: { content?: string } }[];
    };
    call.promptTokens = body.usage?.prompt_tokens ?? null;
    call.completionTokens = body.usage?.completion_tokens ?? null;
    call.finishReason = body.choices?.[0]?.finish_reason ?? null;
    call.contentHead = body.choices?.[0]?.message?.content?.slice(0, HEAD_CHARS) ?? text.slice(0, HEAD_CHARS);
  } catch {
    call.contentHead = text.slice(0, HEAD_CHARS);
  }
}

/** `upstream`: the model server's base URL (http://127.0.0.1:<port>/v1). */
export async function recordModelCalls(upstream: string): Promise<ModelCallRecorder> {
  let target = new URL(upstream);
  const calls: ModelCall[] = [];
  const { server, baseUrl } = await listen((req, res) => {
    const call: ModelCall = {
      startedAt: nowMs(),
      clientDoneAt: null,
      clientAborted: false,
      upstreamDoneAt: null,
      status: null,
      promptTokens: null,
      completionTokens: null,
      finishReason: null,
      contentHead: null,
    };
    calls.push(call);
    res.on('close', () => {
      if (call.clientDoneAt === null) {
        call.clientDoneAt = nowMs();
        call.clientAborted = !res.writableFinished;
      }
    });
    const to = target;
    const path = `${to.pathname.replace(/\/$/, '')}${(req.url ?? '').replace(/^\/v1/, '')}`;
    const received: Buffer[] = [];
    req.on('data', (c: Buffer) => received.push(c));
    req.on('end', () => {
      forward(to, path, req.method ?? 'POST', req.headers, Buffer.concat(received), call, res);
    });
  });
  return { baseUrl: `${baseUrl}/v1`, calls, retarget: (u) => void (target = new URL(u)), close: () => closeServer(server) };
}

function forward(
  to: URL,
  path: string,
  method: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
  call: ModelCall,
  res: ServerResponse,
): void {
  // The answer passes through as it comes (a streamed one chunk by chunk). When the service gives up and closes
  // its connection, the upstream one is closed too, as the service's own would be without this pass-through: a
  // streaming server stops generating then, and how long it went on shows in upstreamDoneAt.
  const up = request(
    { host: to.hostname, port: to.port, path, method, headers: { ...headers, host: to.host, 'content-length': String(body.byteLength) } },
    (upRes: IncomingMessage) => {
      const chunks: Buffer[] = [];
      if (!res.destroyed) res.writeHead(upRes.statusCode ?? 502, { 'Content-Type': upRes.headers['content-type'] ?? 'application/json' });
      upRes.on('data', (c: Buffer) => {
        chunks.push(c);
        if (!res.destroyed) res.write(c);
      });
      const done = () => {
        if (call.upstreamDoneAt !== null) return;
        call.upstreamDoneAt = nowMs();
        summarize(call, upRes.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'));
        if (!res.destroyed) res.end();
      };
      upRes.on('end', done);
      upRes.on('close', done);
    },
  );
  res.on('close', () => {
    if (!res.writableFinished) up.destroy();
  });
  up.on('error', (err) => {
    call.upstreamDoneAt = nowMs();
    call.contentHead = `upstream error: ${err.message}`;
    if (!res.destroyed) res.writeHead(502).end();
  });
  up.end(body);
}
