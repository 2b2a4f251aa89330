/** "Today" for advert dates (src/core/sync/today.ts): the sandbox's clock, or the date, or JOBS_TODAY. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dateOf } from '../../../src/core/adverts/dates.js';
import { todayFor } from '../../../src/core/sync/today.js';
import { tempDir } from '../../support/temp-dirs.js';

const NOW = Date.parse('2026-12-01T23:30:00Z');

describe('today', () => {
  it('is the UTC date of now, or JOBS_TODAY; a JOBS_TODAY that is no date is a usage error', async () => {
    expect(dateOf(await todayFor({ sandbox: false, env: {}, now: NOW }))).toBe('2026-12-01');
    expect(dateOf(await todayFor({ sandbox: false, env: { JOBS_TODAY: '2027-01-15' }, now: NOW }))).toBe('2027-01-15');
    await expect(todayFor({ sandbox: false, env: { JOBS_TODAY: 'tomorrow' }, now: NOW })).rejects.toMatchObject({ exitCode: 2 });
  });

  it('against the embedded sandbox, is the date of its clock (moved by --fast-forward), whatever JOBS_TODAY says', async () => {
    const state = tempDir('jobs-today-');
    const env = { XDG_STATE_HOME: state, HOME: state, JOBS_TODAY: '2030-01-01' };
    expect(dateOf(await todayFor({ sandbox: true, env, now: NOW }))).toBe('2026-12-01');
    mkdirSync(join(state, 'jobs'), { recursive: true });
    writeFileSync(join(state, 'jobs', 'sandbox-clock.json'), JSON.stringify({ offset_ms: 2 * 86_400_000 }));
    expect(dateOf(await todayFor({ sandbox: true, env, now: NOW }))).toBe('2026-12-03');
  });
});
