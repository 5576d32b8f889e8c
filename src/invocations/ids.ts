import { ulid } from 'ulid';

export const newInvocationId = () => `inv_${ulid()}`;
