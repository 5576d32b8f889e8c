/**
 * The TypeScript type of a JSON Schema written `as const`, for the keywords the skills' input schemas use
 * (object with properties/required, string with or without enum, array with items, number, boolean).
 * ajv validates against the schema itself; this only keeps the types the drafters read in step with it.
 * A keyword it does not know gives `unknown`, so a schema change that it cannot follow fails to compile
 * where the inputs are used rather than passing silently.
 */
type ValueOf<S> = S extends { enum: readonly (infer E)[] }
  ? E
  : S extends { type: 'string' }
    ? string
    : S extends { type: 'number' | 'integer' }
      ? number
      : S extends { type: 'boolean' }
        ? boolean
        : S extends { type: 'array'; items: infer I }
          ? ValueOf<I>[]
          : S extends { type: 'object'; properties: object }
            ? FromSchema<S>
            : unknown;

type RequiredKeys<S> = S extends { required: readonly (infer R)[] } ? R : never;

type Flatten<T> = { [K in keyof T]: T[K] };

export type FromSchema<S> = S extends { properties: infer P }
  ? Flatten<{ [K in keyof P & RequiredKeys<S>]: ValueOf<P[K]> } & { [K in Exclude<keyof P, RequiredKeys<S>>]?: ValueOf<P[K]> }>
  : never;
