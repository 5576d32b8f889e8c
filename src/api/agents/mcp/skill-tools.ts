import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { InvocationRefused, type InvocationService } from '../../../invocations/invoke';
import { describeRefusal } from '../../../invocations/refusal-text';
import { findSkill, SKILLS } from '../../../skills/catalog';
import { isSettled } from '../../../invocations/follow';
import { mcpIdempotencyKey } from '../agent-idempotency';
import { progressValue } from './progress';
import type { InvocationRecord } from '../../../store/invocations';
import type { ProjectRecord } from '../../../store/projects';

export interface SkillToolsDeps {
  service: InvocationService;
  version: string;
}

/**
 * The MCP server of one project for one caller: each skill is a tool whose input schema is the skill's, and a
 * call is an invocation like any other (the same checks, record and durable workflow, through the invocation
 * service). A call reports its steps as progress notifications when the client asked for them (with a model, the
 * draft's arrival and then the model's version of the result), answers with the final version's Markdown and, as
 * structured content, the invocation's id and citations. The client's cancellation (`notifications/cancelled`, or
 * DELETE of its session) cancels the workflow; the server closing the session does not (`session.closedByServer`).
 */
export function skillToolsServer(
  deps: SkillToolsDeps,
  project: ProjectRecord,
  caller: string,
  session: { closedByServer(): boolean },
): Server {
  const server = new Server({ name: `skills-${project._id}`, version: deps.version }, { capabilities: { tools: {} } });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: SKILLS.map((s) => ({
      name: s.name,
      title: s.title,
      description: `${s.description} Drafts a Markdown document whose facts cite the project's documents.`,
      inputSchema: s.inputSchema as { type: 'object'; [k: string]: unknown },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const skill = findSkill(request.params.name);
    if (!skill) throw new McpError(ErrorCode.InvalidParams, `No tool "${request.params.name}"; tools/list names them`);
    let record: InvocationRecord;
    try {
      // A request the transport delivers twice (same session, same JSON-RPC id) is one invocation.
      const idempotencyKey = extra.sessionId ? mcpIdempotencyKey(extra.sessionId, extra.requestId) : undefined;
      record = (await deps.service.invoke({ caller, project, skill, inputs: request.params.arguments ?? {}, idempotencyKey })).record;
    } catch (err) {
      if (err instanceof InvocationRefused) return failed(describeRefusal(err.refusal, project._id, skill.name));
      throw err;
    }
    const progressToken = request.params._meta?.progressToken;
    let sent = -1;
    for await (const current of deps.service.follow(record, { signal: extra.signal })) {
      record = current;
      const figures = progressOf(current);
      // MCP: every notification's progress exceeds the last (a state that did not advance, such as a failure
      // part-way through a step, is told by the tool's result instead).
      if (progressToken === undefined || figures.progress <= sent) continue;
      sent = figures.progress;
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, ...figures } });
    }
    // Not settled: still running, or its draft stored with the model's rewrite still coming.
    if (!isSettled(record)) {
      // The server closed the session (eviction, idle sweep, shutdown): the invocation goes on, pollable by its id.
      if (session.closedByServer()) return failed(`The session closed; invocation ${record._id} goes on`, record);
      // The client cancelled the request (or ended its session): the workflow is cancelled with it (a rewrite
      // stops and its draft stays).
      await deps.service.cancel(project._id, record._id);
      return failed(`Invocation ${record._id} was cancelled`, record);
    }
    // Settled: the final version, with its result.
    if (record.status !== 'completed')
      return failed(`Invocation ${record._id} ${record.status}${record.error ? `: ${record.error.message}` : ''}`, record);
    const result = record.result as { markdown: string; citations?: unknown[]; generator?: string };
    return {
      content: [{ type: 'text', text: result.markdown }],
      structuredContent: {
        invocationId: record._id,
        skill: record.skill,
        status: record.status,
        generator: result.generator ?? null,
        citations: result.citations ?? [],
      },
    };
  });

  return server;
}

/**
 * A progress notification's figures: the steps done (a step under way counts half, see progress.ts), and one more
 * step while a later version of the result is coming (the model's rewrite after the deterministic draft), so progress grows with each notification.
 */
function progressOf(r: InvocationRecord): { progress: number; total: number; message: string } {
  const { completedSteps, totalSteps } = r.progress;
  if (!r.revision) return { progress: progressValue(r.progress), total: totalSteps, message: r.status };
  const step = completedSteps + r.revision.number - 1;
  return r.revision.final
    ? { progress: step, total: step, message: `${r.status}: version ${r.revision.number} of the result` }
    : {
        progress: step,
        total: step + 1,
        message: `${r.status}: the deterministic draft is ready (version ${r.revision.number}); the model's rewrite follows`,
      };
}

function failed(text: string, record?: InvocationRecord): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text }],
    ...(record ? { structuredContent: { invocationId: record._id, status: record.status } } : {}),
  };
}
