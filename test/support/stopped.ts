import { expect } from 'vitest';

/**
 * The number of files a run got through before it was stopped (Ctrl-C): `run` must fail with a
 * CancelledError (exit 130) whose message matches `said` and gives that number first.
 */
export async function filesBeforeStop(run: Promise<unknown>, said: RegExp): Promise<number> {
  const error = await run.then(
    () => expect.fail('the run went to its end'),
    (e: unknown) => e as Error & { exitCode: number },
  );
  expect([error.name, error.exitCode]).toEqual(['CancelledError', 130]);
  const count = said.exec(error.message);
  expect(count, error.message).not.toBeNull();
  return Number(count![1]);
}
