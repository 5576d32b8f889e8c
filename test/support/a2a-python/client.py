"""An A2A client built on the official Python SDK (a2a-sdk), run by test/integration/skills-a2a.test.ts with the SDK
1.x or the SDK 0.3 (scripts/ensure-a2a-python-sdk.sh makes both venvs). It reads the host's public card without a
token, then the project's card with one, streams one task (the call as a text or data part) to its end, reads it
back, and sends text that is not a call. Prints one JSON line of what it saw.

Usage: client.py <api base url> <public base url the cards name> <token> <project> <call as JSON>
"""

import asyncio
import json
import sys
import uuid

import httpx

# Every JSON-RPC call the SDK makes, as (A2A-Version header, method): which protocol it spoke on the wire.
CALLS = []


async def record(request):
    if request.method == 'POST':
        CALLS.append([request.headers.get('a2a-version', ''), json.loads(request.content).get('method')])


def authenticated(token):
    return httpx.AsyncClient(headers={'Authorization': f'Bearer {token}'}, timeout=90, event_hooks={'request': [record]})


async def with_sdk_1(base, public, token, project, call):
    from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
    from a2a.types import GetTaskRequest, Message, Part, Role, SendMessageRequest, TaskState

    async with httpx.AsyncClient(timeout=60) as anonymous:
        public_card = await A2ACardResolver(anonymous, base).get_agent_card()
    async with authenticated(token) as http:
        card = await A2ACardResolver(http, f'{base}/v1/agents/{project}').get_agent_card()
        for interface in card.supported_interfaces:
            interface.url = interface.url.replace(public, base)
        client = ClientFactory(ClientConfig(httpx_client=http, streaming=True)).create(card)

        def request(text):
            return SendMessageRequest(message=Message(message_id=str(uuid.uuid4()), role=Role.ROLE_USER, parts=[Part(text=text)]))

        out = {'sdkProtocol': '1.0', 'publicSkills': [s.id for s in public_card.skills], 'document': ''}
        async for event in client.send_message(request(call)):
            case = event.WhichOneof('payload')
            out.setdefault('firstEvent', case)
            if case == 'task':
                out['taskId'] = event.task.id
                out['finalState'] = TaskState.Name(event.task.status.state)
            elif case == 'status_update':
                out['finalState'] = TaskState.Name(event.status_update.status.state)
            elif case == 'artifact_update':
                out['document'] = next(p.text for p in event.artifact_update.artifact.parts if p.WhichOneof('content') == 'text')
        got = await client.get_task(GetTaskRequest(id=out['taskId']))
        out['gotState'] = TaskState.Name(got.status.state)
        async for event in client.send_message(request('Write our release notes')):
            out['textState'] = TaskState.Name(event.task.status.state)
            out['textReason'] = event.task.status.message.parts[0].text
        return out


async def with_sdk_0_3(base, public, token, project, call):
    from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
    from a2a.types import DataPart, Message, Part, Role, TaskQueryParams, TextPart

    async with httpx.AsyncClient(timeout=60) as anonymous:
        public_card = await A2ACardResolver(anonymous, base).get_agent_card()
    async with authenticated(token) as http:
        card = await A2ACardResolver(http, f'{base}/v1/agents/{project}').get_agent_card()
        card.url = card.url.replace(public, base)
        for interface in card.additional_interfaces or []:
            interface.url = interface.url.replace(public, base)
        client = ClientFactory(ClientConfig(httpx_client=http, streaming=True)).create(card)

        def message(part):
            return Message(message_id=str(uuid.uuid4()), role=Role.user, parts=[Part(root=part)])

        out = {'sdkProtocol': '0.3', 'publicSkills': [s.id for s in public_card.skills], 'document': ''}
        async for task, update in client.send_message(message(DataPart(data=json.loads(call)))):
            out.setdefault('firstEvent', 'task' if update is None else update.kind)
            out['taskId'] = task.id
            out['finalState'] = task.status.state.value
            for artifact in task.artifacts or []:
                out['document'] = next(p.root.text for p in artifact.parts if p.root.kind == 'text')
        got = await client.get_task(TaskQueryParams(id=out['taskId']))
        out['gotState'] = got.status.state.value
        async for task, _ in client.send_message(message(TextPart(text='Write our release notes'))):
            out['textState'] = task.status.state.value
            out['textReason'] = task.status.message.parts[0].root.text
        return out


def main():
    base, public, token, project, call = sys.argv[1:6]
    try:
        from a2a.types import a2a_pb2  # noqa: F401  (only the 1.x SDK has the protocol buffers model)

        run = with_sdk_1
    except ImportError:
        run = with_sdk_0_3
    out = asyncio.run(run(base, public, token, project, call))
    print(json.dumps({**out, 'calls': CALLS}))


if __name__ == '__main__':
    main()
