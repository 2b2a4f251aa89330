/**
 * Worker thread entry (built as dist/validate-worker.cjs): checks the batches of files the main
 * thread sends and answers with what each file leaves behind (see run-files.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { checkFile, loadHashing, type CheckSettings, type FileCheck } from './check-file.js';
import type { WorkerReply, WorkerRequest } from './run-files.js';

// The run's settings, handed over whole (see CheckSettings).
const settings = workerData as CheckSettings;
// Workers read files only; stdin is read by the main thread, which hands its text over (WorkerRequest.stdin).
const noStdin = (): AsyncIterable<Buffer> => ({ [Symbol.asyncIterator]: () => ({ next: async () => ({ done: true, value: undefined }) }) });
const textAsStdin = (text: string) =>
  async function* (): AsyncIterable<string> {
    yield text;
  };

const ready = settings.digests ? loadHashing() : Promise.resolve();

parentPort!.on('message', async ({ batch, files, stdin }: WorkerRequest) => {
  await ready;
  const checks: FileCheck[] = [];
  const input = stdin === undefined ? noStdin : textAsStdin(stdin);
  for (const f of files) checks.push(await checkFile(f, input, settings));
  parentPort!.postMessage({ batch, checks } satisfies WorkerReply);
});
