import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { createChatModel, type ChatModel } from '../../../src/llm/chat-client';
import { LLM_FAILURE } from '../../../src/llm/failures';
import { chatAnswer, startFakeLlm, type FakeLlm } from '../../support/fake-llm';

const MESSAGES = [
  { role: 'system' as const, content: 'rules' },
  { role: 'user' as const, content: '{"draft":{}}' },
];

async function failureOf(promise: Promise<unknown>): Promise<ApplicationFailure> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof ApplicationFailure, `expected an ApplicationFailure, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a rejection');
}

describe('llm: chat-completions client (against a real HTTP server)', () => {
  let fake: FakeLlm;
  let model: ChatModel;
  const signal = () => new AbortController().signal;
  before(async () => {
    fake = await startFakeLlm();
    model = createChatModel({ baseUrl: `${fake.baseUrl}/`, apiKey: 'sk-test', model: 'gpt-test', timeoutMs: 2_000 });
  });
  after(async () => fake?.close());

  it('posts model, messages, JSON mode and temperature 0 with the bearer key, streamed, and joins the content', async () => {
    fake.handle(() => chatAnswer('{"title":"x","sections":[]}'));
    const text = await model.complete(MESSAGES, { signal: signal() });
    assert.equal(text, '{"title":"x","sections":[]}');
    const req = fake.requests.at(-1)!;
    assert.equal(req.path, '/v1/chat/completions');
    assert.equal(req.headers.authorization, 'Bearer sk-test');
    assert.deepEqual(req.body, {
      model: 'gpt-test',
      messages: MESSAGES,
      response_format: { type: 'json_object' },
      temperature: 0,
      stream: true,
    });
  });

  it('reads a server that answers one JSON body although asked to stream', async () => {
    // The fake streams a 200 whenever the request asks: this handler makes it answer with a plain body.
    fake.handle((req) => {
      req.body.stream = false;
      return chatAnswer('{"a":1}');
    });
    assert.equal(await model.complete(MESSAGES, { signal: signal() }), '{"a":1}');
  });

  it('a timed-out generation is closed on the server: the stream stops', async () => {
    fake.handle(() => ({ hang: true }));
    await waitFor(() => fake.pending === 0);
    const before = fake.generated;
    const failure = await failureOf(model.complete(MESSAGES, { signal: signal(), timeoutMs: 400 }));
    assert.equal(failure.type, LLM_FAILURE.timeout);
    assert.ok(fake.generated > before, 'the server was generating while the client waited');
    await waitFor(() => fake.pending === 0);
    const after = fake.generated;
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(fake.generated, after, 'no token is generated after the client went');
  });

  it('sends no Authorization header without a key', async () => {
    fake.handle(() => chatAnswer('{}'));
    await createChatModel({ baseUrl: fake.baseUrl, apiKey: null, model: 'm', timeoutMs: 2_000 }).complete(MESSAGES, { signal: signal() });
    assert.equal(fake.requests.at(-1)!.headers.authorization, undefined);
  });

  it('429 is retryable after Retry-After (seconds or an HTTP date)', async () => {
    fake.handle(() => ({ status: 429, headers: { 'Retry-After': '7' }, body: { error: { message: 'slow down' } } }));
    const seconds = await failureOf(model.complete(MESSAGES, { signal: signal() }));
    assert.equal(seconds.type, LLM_FAILURE.rateLimited);
    assert.equal(seconds.nonRetryable, false);
    assert.equal(seconds.nextRetryDelay, 7_000);

    fake.handle(() => ({ status: 429, headers: { 'Retry-After': new Date(Date.now() + 20_000).toUTCString() } }));
    const date = await failureOf(model.complete(MESSAGES, { signal: signal() }));
    const delay = Number(date.nextRetryDelay);
    assert.ok(delay > 17_000 && delay <= 20_000, `delay ${delay}`);
  });

  it('5xx is retryable with Temporal’s own backoff when no Retry-After is given', async () => {
    fake.handle(() => ({ status: 503 }));
    const failure = await failureOf(model.complete(MESSAGES, { signal: signal() }));
    assert.equal(failure.type, LLM_FAILURE.unavailable);
    assert.equal(failure.nonRetryable, false);
    assert.equal(failure.nextRetryDelay, undefined);
  });

  it('a Retry-After beyond a minute is not worth waiting for', async () => {
    fake.handle(() => ({ status: 429, headers: { 'Retry-After': '3600' } }));
    const failure = await failureOf(model.complete(MESSAGES, { signal: signal() }));
    assert.equal(failure.type, LLM_FAILURE.rejected);
    assert.equal(failure.nonRetryable, true);
  });

  it('other 4xx are not retryable, and the message does not echo the endpoint’s answer', async () => {
    fake.handle(() => ({ status: 400, body: { error: { message: 'secret-ish detail' } } }));
    const failure = await failureOf(model.complete(MESSAGES, { signal: signal() }));
    assert.equal(failure.type, LLM_FAILURE.rejected);
    assert.equal(failure.nonRetryable, true);
    assert.match(failure.message, /HTTP 400/);
    assert.doesNotMatch(failure.message, /secret-ish/);
  });

  it('a 200 without choices[0].message.content is a malformed answer', async () => {
    fake.handle(() => ({ body: { choices: [] } }));
    assert.equal((await failureOf(model.complete(MESSAGES, { signal: signal() }))).type, LLM_FAILURE.malformed);
    fake.handle(() => ({ body: 'not json' }));
    assert.equal((await failureOf(model.complete(MESSAGES, { signal: signal() }))).type, LLM_FAILURE.malformed);
  });

  it('gives up after the timeout and closes the request', async () => {
    fake.handle(() => ({ hang: true }));
    const abortedBefore = fake.aborted;
    const started = Date.now();
    const failure = await failureOf(model.complete(MESSAGES, { signal: signal(), timeoutMs: 300 }));
    assert.equal(failure.type, LLM_FAILURE.timeout);
    assert.equal(failure.nonRetryable, true);
    assert.ok(Date.now() - started < 1_500);
    await waitFor(() => fake.aborted > abortedBefore);
  });

  it('a caller abort (activity cancellation) rejects with the caller’s reason, not a model failure', async () => {
    fake.handle(() => ({ hang: true }));
    const controller = new AbortController();
    const reason = new Error('cancelled by the workflow');
    const call = model.complete(MESSAGES, { signal: controller.signal });
    await waitFor(() => fake.pending > 0);
    controller.abort(reason);
    await assert.rejects(call, (err) => err === reason);
  });

  it('an endpoint that does not answer at all is unavailable (retryable)', async () => {
    const closed = await startFakeLlm();
    const url = closed.baseUrl;
    await closed.close();
    const failure = await failureOf(
      createChatModel({ baseUrl: url, apiKey: null, model: 'm', timeoutMs: 2_000 }).complete(MESSAGES, { signal: signal() }),
    );
    assert.equal(failure.type, LLM_FAILURE.unavailable);
    assert.equal(failure.nonRetryable, false);
    assert.equal(failure.message, 'the model endpoint could not be reached', 'no host or port in what users may see');
    assert.match(failure.cause?.message ?? '', /ECONNREFUSED/);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail('condition not met within 2 s');
    await new Promise((r) => setTimeout(r, 10));
  }
}
