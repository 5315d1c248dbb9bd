// A stop (pg_cancel_backend, KILL QUERY) travels over a second connection and lands whenever that
// connection gets there. Left in flight, it can end the session's next statement instead of the one it
// was sent for: a cancelled COPY's late cancel was seen failing the following export with "canceling
// statement due to user request". So a stop on its way is shared by everyone who asks for one, and the
// session starts no statement until it has landed.

/** The stops of one warehouse session. */
export class WarehouseStop {
  private onItsWay: Promise<void> | undefined;

  /** `deliver` sends the stop and settles once the server has taken it; it never rejects. */
  constructor(private readonly deliver: () => Promise<void>) {}

  /** Sends a stop, or joins the one already on its way. */
  send(): Promise<void> {
    this.onItsWay ??= this.deliver()
      .catch(() => undefined)
      .finally(() => (this.onItsWay = undefined));
    return this.onItsWay;
  }

  /** Resolves once no stop is on its way: await it before the session's next statement. */
  async landed(): Promise<void> {
    while (this.onItsWay) await this.onItsWay;
  }
}
