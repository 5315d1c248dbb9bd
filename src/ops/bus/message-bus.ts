// A message bus on named channels: what the replicas of one installation tell each other live (run
// events, stop and feedback requests, credential changes). In one process the bus is this module's
// memory bus: delivery is a synchronous call with the very object published, no copy and no
// serialisation. Replicas share a Redis bus (redis-bus.ts) with the same contract, plus requests.

/** Receives a message; `local` says it was published by this process. A request's answer is the return value. */
export type BusHandler = (message: unknown, local: boolean) => unknown;

export interface BusSubscription {
  /** Settles when messages published from now on, by any replica, reach the handler. */
  ready: Promise<void>;
  close(): void;
}

export interface MessageBus {
  /** Whether other replicas may publish and subscribe (a bus shared through Redis). */
  readonly shared: boolean;
  /** Delivers to this process's subscribers at once (synchronously), and to the other replicas'. */
  publish(channel: string, message: unknown): void;
  /**
   * Subscribes to a channel. `onResync` is called when messages from other replicas may have been
   * missed (the connection to Redis was lost and is back): the subscriber reads what it missed from
   * the store.
   */
  subscribe(channel: string, handler: BusHandler, onResync?: () => void): BusSubscription;
  /**
   * Asks every replica subscribed to `channel` (this one included) and settles with the first defined
   * answer, or undefined once every one has answered without one, or after `timeoutMs`. Always
   * undefined on a bus that is not shared.
   */
  request(channel: string, message: unknown, timeoutMs: number): Promise<unknown>;
  close(): Promise<void>;
}

/** Handlers by channel, with synchronous delivery: the part every bus has. */
export class LocalChannels {
  private handlers = new Map<string, Set<BusHandler>>();

  add(channel: string, handler: BusHandler): () => void {
    let set = this.handlers.get(channel);
    if (!set) this.handlers.set(channel, (set = new Set()));
    set.add(handler);
    return () => {
      set.delete(handler);
      if (set.size === 0 && this.handlers.get(channel) === set) this.handlers.delete(channel);
    };
  }

  deliver(channel: string, message: unknown, local: boolean): void {
    const set = this.handlers.get(channel);
    if (!set) return;
    // A copy: a handler may unsubscribe itself (or another) while it runs.
    for (const handler of set.size === 1 ? set : [...set]) handler(message, local);
  }

  /** Delivers a request to every handler of the channel; the first defined answer. */
  ask(channel: string, message: unknown, local: boolean): unknown {
    let answer: unknown;
    for (const handler of [...(this.handlers.get(channel) ?? [])]) {
      const a = handler(message, local);
      if (answer === undefined) answer = a;
    }
    return answer;
  }

  has(channel: string): boolean {
    return this.handlers.has(channel);
  }

  count(channel: string): number {
    return this.handlers.get(channel)?.size ?? 0;
  }
}

/** The bus of a single process: nothing leaves it. */
export function memoryBus(): MessageBus & { count(channel: string): number } {
  const channels = new LocalChannels();
  const ready = Promise.resolve();
  return {
    shared: false,
    publish: (channel, message) => channels.deliver(channel, message, true),
    subscribe: (channel, handler) => ({ ready, close: channels.add(channel, handler) }),
    request: () => Promise.resolve(undefined),
    count: (channel) => channels.count(channel),
    close: () => Promise.resolve(),
  };
}
