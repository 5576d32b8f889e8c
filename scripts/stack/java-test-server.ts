/**
 * Temporal's time-skipping test server (Maven Central `io.temporal:temporal-test-server`, main class
 * `io.temporal.testserver.TestServer <port>`), for workflow tests that sleep for months in a second.
 * `@temporalio/testing` would download its own copy at run time; instead Maven fetches the pinned artifact and
 * its dependencies once into the user-level cache, and a wrapper script starts it as an `existing-path`
 * server. Needs java (17+) and mvn.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir, onPath } from './binaries';

export const JAVA_TEST_SERVER_VERSION = '1.31.0';

const log = (msg: string) => process.stderr.write(`[stack] ${msg}\n`);

const POM = (version: string) => `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.skills-billing-service</groupId><artifactId>temporal-test-server-classpath</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>io.temporal</groupId><artifactId>temporal-test-server</artifactId><version>${version}</version></dependency>
  </dependencies>
</project>
`;

/** The path of an executable that starts the test server on the port given as its argument. */
export function ensureJavaTestServer(): string {
  const home = join(cacheDir(), '..', `temporal-test-server-${JAVA_TEST_SERVER_VERSION}`);
  const launcher = join(home, 'run.sh');
  if (existsSync(launcher)) return launcher;
  const java = onPath('java');
  const mvn = onPath('mvn');
  if (!java || !mvn) {
    throw new Error(
      `The time-skipping test server needs ${[!java && 'java (17+)', !mvn && 'mvn'].filter(Boolean).join(' and ')} on PATH ` +
        '(Debian: apt-get install default-jdk-headless maven).',
    );
  }
  log(`fetching Temporal's test server ${JAVA_TEST_SERVER_VERSION} and its dependencies with Maven (first time only)…`);
  // Built beside its final place, then renamed: atomic for concurrent runs, and never across filesystems.
  mkdirSync(join(home, '..'), { recursive: true });
  const work = mkdtempSync(`${home}.partial-`);
  try {
    writeFileSync(join(work, 'pom.xml'), POM(JAVA_TEST_SERVER_VERSION));
    const started = Date.now();
    const res = spawnSync(mvn, ['-B', '-q', 'dependency:copy-dependencies', `-DoutputDirectory=${join(work, 'lib')}`], {
      cwd: work,
      encoding: 'utf8',
      timeout: 600_000,
    });
    if (res.status !== 0)
      throw new Error(
        `mvn could not fetch io.temporal:temporal-test-server:${JAVA_TEST_SERVER_VERSION}:\n${(res.stdout + res.stderr).slice(-3000)}`,
      );
    log(`test server fetched in ${Math.round((Date.now() - started) / 1000)} s`);
    // Tiered C1 and the serial collector start the JVM fastest: the SDK gives the server 5 s to answer.
    writeFileSync(
      join(work, 'run.sh'),
      `#!/bin/sh\nexec "${java}" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss512k -cp "${join(home, 'lib')}/*" io.temporal.testserver.TestServer "$@"\n`,
      { mode: 0o755 },
    );
    if (!existsSync(launcher)) renameSync(work, home);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return launcher;
}
