/**
 * One backoff gate per client. The quota is per client, so when one request hears 429 every other
 * request of the same client would hear it too: the gate holds them all until the wait is over
 * instead of letting each burn its own retries.
 */
export class RateGate {
  private openAt = 0;

  constructor(private readonly now: () => number) {}

  /** Holds every request until `ms` from now; never shortens a pause already in force. */
  pause(ms: number): void {
    this.openAt = Math.max(this.openAt, this.now() + ms);
  }

  /** How long a request starting now must wait (0 when the gate is open). */
  remaining(): number {
    return Math.max(0, this.openAt - this.now());
  }

  /** The moment the gate opens; compared before and after a wait to see whether it was extended. */
  get opensAt(): number {
    return this.openAt;
  }
}
