import { appendFileSync } from 'node:fs';
import Mocha from 'mocha';

/**
 * Mocha's spec reporter plus one closing line "<suite>: N passed, N failed, N skipped" that CI reads, and a
 * tally appended to $TEST_TALLY_FILE so scripts/test.sh can print the total over several mocha runs.
 */
class SpecWithTally extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options: Mocha.MochaOptions) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const s = runner.stats ?? { passes: 0, failures: 0, pending: 0 };
      const label = process.env.TEST_SUITE_LABEL ?? 'tests';
      process.stdout.write(`${label}: ${s.passes} passed, ${s.failures} failed, ${s.pending} skipped\n`);
      if (process.env.TEST_TALLY_FILE) appendFileSync(process.env.TEST_TALLY_FILE, `${s.passes} ${s.failures} ${s.pending}\n`);
    });
  }
}

export = SpecWithTally;
