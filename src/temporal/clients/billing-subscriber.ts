/**
 * The billing-subscriber entity workflow's client: the only code outside workflows that starts or signals it.
 */
import type { Client, WorkflowClientInterceptor } from '@temporalio/client';
import { reducerEvent, type BillingEvent } from '../../billing/provider-events';
import type { BillingScope } from '../../billing/subscriber-id';
import { applyEvent, initialState } from '../../billing/subscriber-state';
import { searchStatus } from '../../billing/summary';
import {
  billingSubscriberContract as contract,
  INLINE_EVENT_CHARS,
  type BillingSubscriberStart,
  type EventSignalArgs,
  type BillingSubscriberWorkflow,
  type EventReference,
  type SubscriberMessage,
} from '../../contracts/workflows/billing-subscriber';
import { tenantPriority } from '../fairness';
import { SEARCH_ATTRIBUTES } from '../../contracts/workflows/search-attributes';
import type { Clock } from '../../config/clock';

/**
 * Delivers a message to a subscriber's entity workflow, starting it if needed (signal-with-start): the one way
 * the relay, the billing activities and dead-letter retries reach a subscriber. Redelivery is harmless there.
 */
export async function signalSubscriberWorkflow(
  client: Client,
  taskQueue: string,
  target: { scope: BillingScope; subscriberId: string },
  message: SubscriberMessage,
  now: Clock,
): Promise<void> {
  const common = startOptions(taskQueue, target);
  // By name, not by function: importing the workflow module here would tie the API and activities to it.
  const workflow = contract.name;
  switch (message.kind) {
    case 'event':
    case 'eventRef':
      await client.workflow.signalWithStart<BillingSubscriberWorkflow, [BillingEvent | EventReference, number?]>(workflow, {
        ...common,
        typedSearchAttributes: [...common.typedSearchAttributes, ...statusAtStart(target, message, now)],
        signal: contract.signals.providerEvent,
        signalArgs: eventSignalArgs(message),
      });
      break;
    case 'mergeInto':
      await client.workflow.signalWithStart<BillingSubscriberWorkflow, [string, boolean?]>(workflow, {
        ...common,
        signal: contract.signals.mergeInto,
        signalArgs: message.listed === true ? [message.canonicalId, true] : [message.canonicalId],
      });
      break;
    case 'absorb':
      await client.workflow.signalWithStart<BillingSubscriberWorkflow, [typeof message.state]>(workflow, {
        ...common,
        signal: contract.signals.absorb,
        signalArgs: [message.state],
      });
      break;
    case 'redo':
      await client.workflow.signalWithStart<BillingSubscriberWorkflow, [typeof message]>(workflow, {
        ...common,
        signal: contract.signals.redoEffect,
        signalArgs: [message],
      });
      break;
  }
}

type EventMessage = Extract<SubscriberMessage, { kind: 'event' | 'eventRef' }>;

/**
 * Delivers several provider events to one subscriber's workflow in one signal-with-start (the relay's batch;
 * see providerEventsSignal), in order; one event goes as it always did, alone.
 */
export async function signalSubscriberEvents(
  client: Client,
  taskQueue: string,
  target: { scope: BillingScope; subscriberId: string },
  messages: EventMessage[],
  now: Clock,
): Promise<void> {
  if (messages.length === 1) return signalSubscriberWorkflow(client, taskQueue, target, messages[0]!, now);
  const common = startOptions(taskQueue, target);
  await client.workflow.signalWithStart<BillingSubscriberWorkflow, [EventSignalArgs[]]>(contract.name, {
    ...common,
    typedSearchAttributes: [...common.typedSearchAttributes, ...statusAtStart(target, messages[0]!, now)],
    signal: contract.signals.providerEvents,
    signalArgs: [messages.map(eventSignalArgs)],
  });
}

function startOptions(taskQueue: string, target: { scope: BillingScope; subscriberId: string }) {
  const start: BillingSubscriberStart = { scope: target.scope, subscriberId: target.subscriberId };
  return {
    workflowId: contract.workflowId(target.scope, target.subscriberId),
    taskQueue,
    args: [start] as [BillingSubscriberStart],
    typedSearchAttributes: [
      { key: SEARCH_ATTRIBUTES.BillingScope, value: target.scope },
      { key: SEARCH_ATTRIBUTES.SubscriberId, value: target.subscriberId },
    ],
    staticSummary: `Billing subscriber ${target.subscriberId} (${target.scope})`,
    priority: tenantPriority(target.scope),
  };
}

/**
 * A provider event travels cut down to the members the service acts on, and by reference to the inbox when even
 * those are large (hundreds of long aliases or entitlement ids): one workflow task takes every signal that
 * arrived since the last one, and Temporal refuses a task over its message size, which would freeze the record.
 */
function eventSignalArgs(message: EventMessage): EventSignalArgs {
  const payload: BillingEvent | EventReference =
    message.kind === 'eventRef' ? { kind: 'ref', eventId: message.eventId } : inlineOrReference(reducerEvent(message.event));
  return message.receivedAtMs === undefined ? [payload] : [payload, message.receivedAtMs];
}

function inlineOrReference(event: BillingEvent): BillingEvent | EventReference {
  return JSON.stringify(event).length <= INLINE_EVENT_CHARS ? event : { kind: 'ref', eventId: event.id };
}

/**
 * The `BillingStatus` a subscriber's workflow will show after this event, when the event starts it: set with the
 * start (free on Temporal Cloud, where an upsert is a billable action), so a new subscriber's first event needs
 * no upsert. Only a start uses it; the workflow still upserts whenever its status differs.
 */
function statusAtStart(target: { scope: BillingScope; subscriberId: string }, message: SubscriberMessage, now: Clock) {
  if (message.kind !== 'event') return [];
  try {
    const first = applyEvent(initialState(target.scope, target.subscriberId), reducerEvent(message.event), now().getTime()).state;
    return [{ key: SEARCH_ATTRIBUTES.BillingStatus, value: searchStatus(first) }];
  } catch {
    // An event the reducer cannot apply (the workflow parks it): start without a status, as before.
    return [];
  }
}

/**
 * The Temporal UI's static details of a subscriber workflow (Markdown, set when its first message starts it):
 * what it is, links to the customer and its deliveries in the console (`PUBLIC_BASE_URL`), and what Request
 * Cancellation does to it.
 */
export function subscriberStaticDetails(scope: BillingScope, subscriberId: string, publicBaseUrl: string): string {
  const where = scope === 'operator' ? 'scope=operator' : `app=${encodeURIComponent(scope.slice('app:'.length))}`;
  const console = `${publicBaseUrl.replace(/\/+$/, '')}/dashboard?${where}`;
  const id = encodeURIComponent(subscriberId);
  return [
    `**Customer** \`${subscriberId}\` of \`${scope}\`: this workflow applies the provider's events to the customer's record with the billing reducer, and sleeps on one durable timer until its next change with time alone (a scheduled downgrade, an entitlement's end).`,
    '',
    `[Open the customer in the console](${console}&view=customer&id=${id}) · [its webhook deliveries](${console}&view=events&subscriber=${id})`,
    '',
    'Request Cancellation is recorded and ignored (it keeps applying its events). Terminate stops it; its next event resumes it from the stored record.',
  ].join('\n');
}

/**
 * A client interceptor that gives every subscriber workflow this process starts its static details, with console
 * links: the composition roots add it (they know PUBLIC_BASE_URL), so the relay, the activities and dead-letter
 * retries need not carry it.
 */
export function subscriberDetailsInterceptor(publicBaseUrl: string): WorkflowClientInterceptor {
  return {
    async signalWithStart(input, next) {
      const start = input.options.args?.[0] as Partial<BillingSubscriberStart> | undefined;
      if (input.workflowType !== contract.name || !start?.scope || typeof start.subscriberId !== 'string') return next(input);
      return next({
        ...input,
        options: { ...input.options, staticDetails: subscriberStaticDetails(start.scope, start.subscriberId, publicBaseUrl) },
      });
    },
  };
}
