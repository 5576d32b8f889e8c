/**
 * Polls until `probe` returns a value that `done` accepts, or fails with the last value seen once the
 * deadline passes. Tests never sleep a fixed time to wait for something.
 */
export async function eventually<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  let last: T | undefined;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      last = await probe();
      lastError = undefined;
      if (done(last)) return last;
    } catch (err) {
      lastError = err;
    }
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 50));
  }
  const seen = lastError ? `last error: ${String(lastError)}` : `last value: ${JSON.stringify(last)?.slice(0, 2000)}`;
  throw new Error(`timed out waiting for ${options.what ?? 'condition'}; ${seen}`);
}
