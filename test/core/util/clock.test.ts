import { describe, expect, it } from 'vitest';
import { monotonicMs } from '../../../src/core/util/clock.js';

describe('monotonicMs', () => {
  it('counts milliseconds as performance.now does, and never goes back', async () => {
    const ours = monotonicMs();
    const theirs = performance.now();
    await new Promise((done) => setTimeout(done, 30));
    const ourSpan = monotonicMs() - ours;
    const theirSpan = performance.now() - theirs;
    expect(ourSpan).toBeGreaterThanOrEqual(25);
    expect(Math.abs(ourSpan - theirSpan)).toBeLessThan(10);
    let last = monotonicMs();
    for (let i = 0; i < 1000; i++) {
      const now = monotonicMs();
      expect(now).toBeGreaterThanOrEqual(last);
      last = now;
    }
  });
});
