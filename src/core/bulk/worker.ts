/**
 * Worker thread entry (built as dist/validate-worker.cjs): checks the batches of files the main
 * thread sends and answers with what each file leaves behind (see run-files.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { checkFile, loadHashing, type CheckSettings, type FileCheck } from './check-file.js';
import type { WorkerReply, WorkerRequest } from './run-files.js';

// The run's settings, handed over whole (see CheckSettings).
const settings = workerData as CheckSettings;
// Workers get files only; stdin stays with the main thread.
const noStdin = (): AsyncIterable<Buffer> => ({ [Symbol.asyncIterator]: () => ({ next: async () => ({ done: true, value: undefined }) }) });

const ready = settings.digests ? loadHashing() : Promise.resolve();

parentPort!.on('message', async ({ batch, files }: WorkerRequest) => {
  await ready;
  const checks: FileCheck[] = [];
  for (const f of files) checks.push(await checkFile(f, noStdin, settings));
  parentPort!.postMessage({ batch, checks } satisfies WorkerReply);
});
