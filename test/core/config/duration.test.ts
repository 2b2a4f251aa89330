import { describe, expect, it } from 'vitest';
import { formatDuration, parseDurationMs } from '../../../src/core/config/duration.js';

describe('one spelling of a duration', () => {
  it('the largest unit that writes it exactly; seconds with decimals below a minute', () => {
    expect([86_400_000, 7_200_000, 3_600_000, 120_000, 90_000, 30_000, 1_500, 1_250, 500, 1].map(formatDuration)).toEqual([
      '1d',
      '2h',
      '1h',
      '2m',
      '90s',
      '30s',
      '1.5s',
      '1.25s',
      '500ms',
      '1ms',
    ]);
  });

  it('reads back to the same milliseconds', () => {
    for (const ms of [1, 500, 1_500, 1_234, 30_000, 90_000, 120_000, 3_600_000]) expect(parseDurationMs(formatDuration(ms))).toBe(ms);
  });
});
