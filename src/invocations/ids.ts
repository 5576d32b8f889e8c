import { ulid } from 'ulid';

export const newInvocationId = () => `inv_${ulid()}`;

/** The skill workflow of an invocation: readable in the Temporal UI, and unique per invocation. */
export const skillWorkflowId = (project: string, id: string) => `skill/${project}/${id}`;
