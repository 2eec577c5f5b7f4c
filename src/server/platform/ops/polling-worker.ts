/**
 * A background loop in the server process: a round of work now and again, at
 * once when woken (a new message, a send asked for), otherwise after the
 * sleep the worker chooses; never two rounds at once. stop() waits for the
 * round in progress, so what it was doing is recorded before the process ends.
 */
export abstract class PollingWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  protected stopped = true;

  start(): void {
    this.stopped = false;
    this.wake();
  }

  /** Runs a round now (or right after the current one). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.round()
      .then(() => this.sleepTime())
      .then((sleepMs) => {
        this.running = undefined;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.wake();
        } else {
          this.timer = setTimeout(() => this.wake(), sleepMs);
        }
      });
  }

  /** Stops the loop and waits for the round in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One round of work; it must not reject (log its failures and return). */
  protected abstract round(): Promise<void>;

  /** How long to wait before the next round when nothing wakes the worker; must not reject. */
  protected abstract sleepTime(): Promise<number>;
}
