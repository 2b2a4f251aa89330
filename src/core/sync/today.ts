/**
 * "Today" for an advert's dates (adverts/dates.ts), as a UTC day number. Against the embedded
 * sandbox it is the sandbox's simulated date (`jobs sandbox --fast-forward` moves it), so a run can
 * be tried over several days; otherwise the machine's date. JOBS_TODAY=YYYY-MM-DD sets it for tests
 * and rehearsals: an environment variable, which a project config (it arrives with any pull
 * request) cannot set.
 */
import { UsageError } from '../errors/failures.js';
import { dayAt, dayOf } from '../adverts/dates.js';

type Env = Record<string, string | undefined>;

export const TODAY_VARIABLE = 'JOBS_TODAY';

export interface TodayInputs {
  /** Against the embedded sandbox (`--sandbox`): its clock. */
  sandbox: boolean;
  env: Env;
  /** The real time (epoch ms); default Date.now(). */
  now?: number;
  /** Told, with --sandbox, that JOBS_TODAY is set and not used (the caller shows it as a warning). */
  warn?: (text: string) => void;
}

/** Why JOBS_TODAY is not used with --sandbox. */
export const TODAY_IGNORED = `${TODAY_VARIABLE} is ignored with --sandbox: the embedded sandbox's own clock gives today (jobs sandbox --fast-forward moves it); unset ${TODAY_VARIABLE}, or run without --sandbox`;

export async function todayFor({ sandbox, env, now = Date.now(), warn }: TodayInputs): Promise<number> {
  if (sandbox) {
    // Set (even to something that is not a date) and not used: said, not silently dropped.
    const set = env[TODAY_VARIABLE];
    if (set !== undefined && set !== '') warn?.(TODAY_IGNORED);
    return dayAt(await clockNow({ sandbox, env, now }));
  }
  const set = env[TODAY_VARIABLE];
  if (set === undefined || set === '') return dayAt(now);
  const day = dayOf(set);
  if (day === undefined)
    throw new UsageError(`${TODAY_VARIABLE}=${JSON.stringify(set)} is not a date; write it as YYYY-MM-DD, or unset it to use today's date`);
  return day;
}

/** The time (epoch ms) as the service sees it: the embedded sandbox's simulated clock with --sandbox, else the real one. */
export async function clockNow({ sandbox, env, now = Date.now() }: TodayInputs): Promise<number> {
  if (!sandbox) return now;
  // Loaded only for the sandbox: its clock lives beside its state.
  const [{ clockFile, readOffset }, { sandboxStatePath }] = await Promise.all([import('../sandbox/clock.js'), import('../sandbox/embedded.js')]);
  return now + readOffset(clockFile(sandboxStatePath(env)));
}
