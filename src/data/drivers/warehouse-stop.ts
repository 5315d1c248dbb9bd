// A stop (pg_cancel_backend, KILL QUERY) travels over a second connection and lands whenever that
// connection gets there. Left in flight, it can end the session's next statement instead of the one it
// was sent for: a cancelled COPY's late cancel was seen failing the following export with "canceling
// statement due to user request". So a stop on its way is shared by everyone who asks for one, and the
// session starts no statement until it has landed.

/**
 * How long the session waits for a stop before going on without it. Both drivers give up connecting
 * for a stop after 5 s; a server that takes the connection and then answers nothing would otherwise
 * hold every later statement of the session before its budget even starts.
 */
const STOP_LANDS_WITHIN_MS = 10_000;

/** The stops of one warehouse session. */
export class WarehouseStop {
  private onItsWay: Promise<void> | undefined;

  /** `deliver` sends the stop and settles once the server has taken it. */
  constructor(
    private readonly deliver: () => Promise<void>,
    private readonly withinMs = STOP_LANDS_WITHIN_MS,
  ) {}

  /** Sends a stop, or joins the one already on its way. */
  send(): Promise<void> {
    this.onItsWay ??= this.bounded().finally(() => (this.onItsWay = undefined));
    return this.onItsWay;
  }

  /** Resolves once no stop is on its way: await it before the session's next statement. */
  async landed(): Promise<void> {
    while (this.onItsWay) await this.onItsWay;
  }

  private bounded(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const given = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.withinMs)));
    return Promise.race([this.deliver().catch(() => undefined), given]).finally(() => clearTimeout(timer));
  }
}
