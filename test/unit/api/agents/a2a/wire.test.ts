import assert from 'node:assert/strict';
import { howToCall, projectCardFacts, requestedSkill, type A2aMessage } from '../../../../../src/api/agents/a2a/protocol';
import { blocking, card, messageOf, operationOf, rendering, requestedVersion, versionNaming } from '../../../../../src/api/agents/a2a/wire';
import { SKILLS } from '../../../../../src/skills/catalog';

const msg = (parts: A2aMessage['parts'], metadata?: Record<string, unknown>): A2aMessage => ({
  messageId: 'm',
  role: 'user',
  parts,
  metadata,
});

describe('A2A versions and wire shapes (1.0 and 0.3)', () => {
  it('A2A-Version: Major.Minor, a patch ignored, empty is 0.3 (A2A 1.0 §3.6); anything else is unsupported', () => {
    assert.equal(requestedVersion(''), '0.3');
    assert.equal(requestedVersion('0.3'), '0.3');
    assert.equal(requestedVersion('0.3.0'), '0.3');
    assert.equal(requestedVersion('1.0'), '1.0');
    assert.equal(requestedVersion(' 1.0.2 '), '1.0');
    for (const v of ['1.1', '2.0', '0.2', '1', 'latest', '1.0.0.0', `1.${'0'.repeat(50)}`]) assert.equal(requestedVersion(v), null, v);
  });

  it("each version's method names (A2A 1.0 §5.3; 0.3 §7), and which version names a method the request's does not", () => {
    assert.equal(operationOf('1.0', 'SendMessage'), 'send');
    assert.equal(operationOf('1.0', 'SubscribeToTask'), 'subscribe');
    assert.equal(operationOf('1.0', 'message/send'), undefined);
    assert.equal(operationOf('0.3', 'tasks/resubscribe'), 'subscribe');
    assert.equal(operationOf('0.3', 'agent/getAuthenticatedExtendedCard'), 'extendedCard');
    assert.equal(operationOf('0.3', 'toString'), undefined);
    assert.equal(versionNaming('GetTask'), '1.0');
    assert.equal(versionNaming('tasks/get'), '0.3');
    assert.equal(versionNaming('nope'), undefined);
  });

  it('a call is a data part, or a text part holding its JSON; other text is told apart from no call at all', () => {
    const call = { skill: 'incident_rca', inputs: { incidentId: 'INC-1' } };
    assert.deepEqual(requestedSkill(msg([{ kind: 'data', data: call }])), { kind: 'call', ...call });
    assert.deepEqual(requestedSkill(msg([{ kind: 'text', text: ` ${JSON.stringify(call)}\n` }])), { kind: 'call', ...call });
    assert.deepEqual(requestedSkill(msg([{ kind: 'text', text: '{"skill":"incident_rca"}' }])), {
      kind: 'call',
      skill: 'incident_rca',
      inputs: {},
    });
    assert.deepEqual(requestedSkill(msg([{ kind: 'data', data: { incidentId: 'INC-1' } }], { skill: 'incident_rca' })), {
      kind: 'call',
      skill: 'incident_rca',
      inputs: { incidentId: 'INC-1' },
    });
    for (const text of ['write release notes', '{not json', '{"inputs": {}}', '[1]', '"x"'])
      assert.deepEqual(requestedSkill(msg([{ kind: 'text', text }])), { kind: 'text' }, text);
    assert.deepEqual(requestedSkill(msg([{ kind: 'file' }])), { kind: 'none' });
  });

  it('the failed-task text names every skill with its input schema', () => {
    const text = howToCall(SKILLS);
    for (const s of SKILLS) assert.ok(text.includes(`${s.name} (${s.title}): ${JSON.stringify(s.inputSchema)}`));
  });

  it('1.0 parts are read by their member (A2A 1.0 §4.1.6): text, data; url and raw are files', () => {
    const params = {
      message: {
        messageId: 'm',
        role: 'ROLE_USER',
        parts: [{ text: 'hi', mediaType: 'text/plain' }, { data: { a: 1 } }, { url: 'https://x/y.pdf' }, { raw: 'AA==' }, 7],
      },
    };
    assert.deepEqual((messageOf('1.0', params) as A2aMessage).parts, [
      { kind: 'text', text: 'hi' },
      { kind: 'data', data: { a: 1 } },
      { kind: 'file' },
      { kind: 'file' },
      { kind: 'file' },
    ]);
    assert.equal((messageOf('1.0', params) as A2aMessage).role, 'user');
    assert.equal(messageOf('0.3', params), params.message);
  });

  it('blocking: 0.3 when asked (configuration.blocking), 1.0 unless returnImmediately (A2A 1.0 §3.2.2)', () => {
    assert.equal(blocking('0.3', {}), false);
    assert.equal(blocking('0.3', { configuration: { blocking: true } }), true);
    assert.equal(blocking('1.0', {}), true);
    assert.equal(blocking('1.0', { configuration: { returnImmediately: true } }), false);
  });

  it('1.0 tasks and events as the specification shows them (whats-new-v1: no kind, TASK_STATE_*, ROLE_*, statusUpdate/artifactUpdate)', () => {
    const task = {
      kind: 'task' as const,
      id: 't',
      contextId: 't',
      status: {
        state: 'failed' as const,
        timestamp: '2026-01-01T00:00:00.000Z',
        message: {
          kind: 'message' as const,
          messageId: 'e',
          role: 'agent' as const,
          parts: [{ kind: 'text' as const, text: 'why' }],
          taskId: 't',
          contextId: 't',
        },
      },
      artifacts: [
        {
          artifactId: 'a',
          name: 'doc',
          parts: [
            { kind: 'text' as const, text: '# x' },
            { kind: 'data' as const, data: { citations: [] } },
          ],
        },
      ],
      metadata: {},
    };
    const v1 = rendering('1.0');
    assert.deepEqual(v1.sent(task), {
      task: {
        id: 't',
        contextId: 't',
        status: {
          state: 'TASK_STATE_FAILED',
          timestamp: '2026-01-01T00:00:00.000Z',
          message: {
            messageId: 'e',
            role: 'ROLE_AGENT',
            parts: [{ text: 'why', mediaType: 'text/markdown' }],
            taskId: 't',
            contextId: 't',
          },
        },
        artifacts: [
          {
            artifactId: 'a',
            name: 'doc',
            parts: [
              { text: '# x', mediaType: 'text/markdown' },
              { data: { citations: [] }, mediaType: 'application/json' },
            ],
          },
        ],
        metadata: {},
      },
    });
    assert.deepEqual(Object.keys(v1.statusEvent(task, true) as object), ['statusUpdate']);
    assert.equal('final' in (v1.statusEvent(task, true) as { statusUpdate: object }).statusUpdate, false);
    assert.deepEqual(Object.keys(v1.artifactEvent(task, task.artifacts[0]!) as object), ['artifactUpdate']);
    assert.deepEqual(rendering('0.3').statusEvent(task, true), {
      kind: 'status-update',
      taskId: 't',
      contextId: 't',
      status: task.status,
      final: true,
    });
    assert.deepEqual(v1.errorData(-32001), [
      { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' },
    ]);
    assert.equal(v1.errorData(-32602), undefined);
    assert.equal(rendering('0.3').errorData(-32001), undefined);
  });

  it('cards: 1.0 with supportedInterfaces and no 0.3 fields; 0.3 with its own fields and the 1.0 interfaces beside them', () => {
    const facts = projectCardFacts({ _id: 'p', name: 'P' }, SKILLS, 'https://api.example/v1/agents/p/a2a', '1.0.0');
    const v1 = card('1.0', facts);
    const v03 = card('0.3', facts);
    const interfaces = [
      { url: 'https://api.example/v1/agents/p/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: 'https://api.example/v1/agents/p/a2a', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ];
    assert.deepEqual(v1.supportedInterfaces, interfaces);
    assert.deepEqual(v03.supportedInterfaces, interfaces);
    for (const field of [
      'protocolVersion',
      'url',
      'preferredTransport',
      'additionalInterfaces',
      'security',
      'supportsAuthenticatedExtendedCard',
    ])
      assert.equal(field in v1, false, field);
    assert.equal(v03.protocolVersion, '0.3.0');
    assert.equal(v03.url, 'https://api.example/v1/agents/p/a2a');
    assert.deepEqual(v03.security, [{ bearer: [] }]);
    assert.equal((v03.securitySchemes as { bearer: { type: string } }).bearer.type, 'http');
  });
});
