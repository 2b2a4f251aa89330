/**
 * Resolves on the next turn of the event loop. Work whose promises all settle at once (files read
 * synchronously, text already in memory) never gives the loop a turn, and a signal's handler
 * (Ctrl-C) runs only there: such loops await this now and then, then look at their abort signal.
 */
export function nextTurn(): Promise<void> {
  return new Promise((done) => setImmediate(done));
}
