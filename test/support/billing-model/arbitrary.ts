/**
 * fast-check arbitraries for worlds of histories and their delivery. Everything a world is made of is a list of
 * numbers (history.ts's Choices), so fast-check shrinks a failing world to fewer customers, shorter stories and
 * plainer choices; `fc.sample` with a seed draws the same world on every machine (the live month test).
 */
import fc from 'fast-check';
import type { WorldDraws } from './history';

export interface Draws {
  world: WorldDraws;
  delivery: number[];
  /** How long after the last delivery the state is read, in hours. */
  readAfterHours: number;
}

const numbers = (min: number, max: number) => fc.array(fc.nat({ max: 1_000_000 }), { minLength: min, maxLength: max });

/** Small worlds for the property tests: 1 to `maxCustomers` customers. */
export function worldDraws(maxCustomers: number): fc.Arbitrary<Draws> {
  return fc.record({
    world: fc.record({
      customers: fc.array(fc.record({ traits: numbers(0, 12), steps: numbers(0, 60) }), { minLength: 1, maxLength: maxCustomers }),
      world: numbers(0, 3 * maxCustomers),
    }),
    delivery: numbers(0, 600),
    readAfterHours: fc.nat({ max: 40 * 24 }),
  });
}

/** A month of an app's traffic: exactly `customers` customers, every story drawn in full. */
export function monthDraws(customers: number): fc.Arbitrary<Draws> {
  return fc.record({
    world: fc.record({
      customers: fc.array(fc.record({ traits: numbers(12, 12), steps: numbers(80, 80) }), { minLength: customers, maxLength: customers }),
      world: numbers(3 * customers, 3 * customers),
    }),
    delivery: numbers(8 * customers, 8 * customers),
    readAfterHours: fc.constant(0),
  });
}

/** The same draws on every machine for one seed. */
export function drawsFor(arbitrary: fc.Arbitrary<Draws>, seed: number): Draws {
  return fc.sample(arbitrary, { seed, numRuns: 1 })[0]!;
}
