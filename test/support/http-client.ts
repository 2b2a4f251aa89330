/** Shared fixtures for the HTTP tests: a client with recorded waits and trace, and error capture. */
import nock from 'nock';
import { afterEach, beforeEach } from 'vitest';
import { JobsClient, type ClientOptions } from '../../src/core/api/client.js';

export const BASE = 'https://jobs.test';
export const TOKEN = 'tok_SECRET_5f3a9c';
/** A fixed wall clock: waits are then exact numbers. */
export const NOW = Date.parse('2024-05-01T12:00:00Z');

export interface Harness {
  client: JobsClient;
  /** Every wait the client asked for, in order. */
  waits: number[];
  /** Every verbose trace line. */
  trace: string[];
}

export function makeClient(overrides: Partial<ClientOptions> = {}): Harness {
  const waits: number[] = [];
  const trace: string[] = [];
  const client = new JobsClient({
    baseUrl: BASE,
    token: TOKEN,
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
    now: () => NOW,
    trace: (line) => trace.push(line),
    ...overrides,
  });
  return { client, waits, trace };
}

/** The error a promise rejects with; fails the test when it resolves. */
export async function rejection<E = Error>(promise: Promise<unknown>): Promise<E> {
  try {
    await promise;
  } catch (error) {
    return error as E;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** No real network: every test declares its interceptors and must use all of them. */
export function useNock(): void {
  beforeEach(() => {
    nock.disableNetConnect();
  });
  afterEach(() => {
    nock.cleanAll();
    nock.enableNetConnect();
  });
}
