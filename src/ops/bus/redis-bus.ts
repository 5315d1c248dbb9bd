// The bus replicas share, on Redis pub/sub (SEXTANT_REDIS_URL), under SEXTANT_REDIS_PREFIX. Messages
// travel as JSON envelopes naming the replica that sent them; this process's own subscribers got
// them synchronously at publish time, so the copy Redis sends back is skipped. Pub/sub keeps nothing
// for a subscriber that is away, so losses are announced instead: when the subscribing connection
// comes back, every subscriber is told to resync (after its channels are subscribed again), and a
// publisher whose PUBLISH failed tells that channel's subscribers to resync once it is back.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LocalChannels, type BusHandler, type BusSubscription, type MessageBus } from './message-bus.ts';

interface Envelope {
  /** The replica that sent it. */
  o: string;
  m?: unknown;
  /** A request's id, and the channel its answers go to. */
  q?: string;
  r?: string;
  /** An answer (absent: no answer from that replica). */
  a?: unknown;
  /** Subscribers may have missed messages of this channel. */
  resync?: true;
}

interface PendingRequest {
  resolve(answer: unknown): void;
  /** How many replicas got the request (known once PUBLISH answers). */
  expected: number;
  answered: number;
}

/** A bus on `publisher` (the service's Redis connection) and a subscribing connection of its own. */
export async function openRedisBus(publisher: Redis, prefix: string): Promise<MessageBus> {
  // The subscriber keeps its commands while Redis is away (a SUBSCRIBE waits for it to come back).
  const subscriber = publisher.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null, lazyConnect: true });
  subscriber.on('error', () => {});
  const bus = new RedisBus(publisher, subscriber, `${prefix}:bus:`);
  await subscriber.connect();
  await bus.start();
  return bus;
}

class RedisBus implements MessageBus {
  readonly shared = true;
  private readonly id = randomUUID();
  private readonly local = new LocalChannels();
  private readonly resyncs = new Map<string, Set<() => void>>();
  /** Channels subscribed on Redis, each settling when its SUBSCRIBE is acknowledged. */
  private readonly subscribed = new Map<string, Promise<void>>();
  private readonly pending = new Map<string, PendingRequest>();
  /** Channels a PUBLISH failed on: their subscribers are told to resync when the publisher is back. */
  private readonly missed = new Set<string>();
  private readonly replies: string;
  private repliesReady: Promise<void> = Promise.resolve();

  constructor(
    private pub: Redis,
    private sub: Redis,
    private keyPrefix: string,
  ) {
    this.replies = `replies:${this.id}`;
  }

  async start(): Promise<void> {
    this.sub.on('message', (key: string, text: string) => this.receive(key.slice(this.keyPrefix.length), text));
    // The subscriber is connected: any later ready is a reconnect, after which ioredis subscribes
    // again in the same turn; the PING is answered after those SUBSCRIBEs, so resyncs read the
    // store only once the channels are live again.
    this.sub.on('ready', () => setImmediate(() => void this.sub.ping().then(() => this.resyncAll(), () => {})));
    this.pub.on('ready', () => this.announceMissed());
    this.repliesReady = this.ensureSubscribed(this.replies);
    await this.repliesReady;
  }

  publish(channel: string, message: unknown): void {
    this.local.deliver(channel, message, true);
    this.send(channel, { o: this.id, m: message });
  }

  subscribe(channel: string, handler: BusHandler, onResync?: () => void): BusSubscription {
    const remove = this.local.add(channel, handler);
    let resyncs = this.resyncs.get(channel);
    if (onResync) {
      if (!resyncs) this.resyncs.set(channel, (resyncs = new Set()));
      resyncs.add(onResync);
    }
    const ready = this.ensureSubscribed(channel);
    let closed = false;
    return {
      ready,
      close: () => {
        if (closed) return;
        closed = true;
        remove();
        if (onResync) resyncs?.delete(onResync);
        if (resyncs?.size === 0) this.resyncs.delete(channel);
        if (!this.local.has(channel)) {
          this.subscribed.delete(channel);
          this.sub.unsubscribe(this.keyPrefix + channel).catch(() => {});
        }
      },
    };
  }

  async request(channel: string, message: unknown, timeoutMs: number): Promise<unknown> {
    await this.repliesReady;
    const q = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const answer = new Promise<unknown>((resolve) => {
      this.pending.set(q, { resolve, expected: Infinity, answered: 0 });
      timer = setTimeout(() => resolve(undefined), timeoutMs);
    }).finally(() => {
      clearTimeout(timer);
      this.pending.delete(q);
    });
    const receivers = await this.pub.publish(this.keyPrefix + channel, JSON.stringify({ o: this.id, q, r: this.replies, m: message } satisfies Envelope)).catch(() => 0);
    const request = this.pending.get(q);
    if (request) {
      request.expected = receivers;
      if (request.answered >= receivers) request.resolve(undefined);
    }
    return answer;
  }

  async close(): Promise<void> {
    for (const request of this.pending.values()) request.resolve(undefined);
    this.sub.removeAllListeners('ready');
    await this.sub.quit().catch(() => this.sub.disconnect());
  }

  private ensureSubscribed(channel: string): Promise<void> {
    let ready = this.subscribed.get(channel);
    if (!ready) this.subscribed.set(channel, (ready = this.sub.subscribe(this.keyPrefix + channel).then(() => {})));
    return ready;
  }

  private send(channel: string, envelope: Envelope): void {
    this.pub.publish(this.keyPrefix + channel, JSON.stringify(envelope)).catch(() => {
      this.missed.add(channel);
      // Failed while the connection looked alive: it may be back already.
      if (this.pub.status === 'ready') this.announceMissed();
    });
  }

  private announceMissed(): void {
    const channels = [...this.missed];
    this.missed.clear();
    for (const channel of channels) this.send(channel, { o: this.id, resync: true });
  }

  private resyncAll(): void {
    for (const set of [...this.resyncs.values()]) for (const resync of [...set]) resync();
  }

  private receive(channel: string, text: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      return;
    }
    if (channel === this.replies) return this.answered(envelope);
    try {
      if (envelope.q !== undefined && envelope.r !== undefined) {
        // A request is answered by every replica, this one included, so the asker can count the answers.
        const answer = this.local.ask(channel, envelope.m, envelope.o === this.id);
        this.pub.publish(this.keyPrefix + envelope.r, JSON.stringify({ o: this.id, q: envelope.q, a: answer } satisfies Envelope)).catch(() => {});
      } else if (envelope.o !== this.id) {
        if (envelope.resync) for (const resync of [...(this.resyncs.get(channel) ?? [])]) resync();
        else this.local.deliver(channel, envelope.m, false);
      }
    } catch {
      // Handlers own their failures; one that throws must not take the connection's listener down.
    }
  }

  private answered(envelope: Envelope): void {
    const request = envelope.q === undefined ? undefined : this.pending.get(envelope.q);
    if (!request) return;
    request.answered++;
    if (envelope.a !== undefined) request.resolve(envelope.a);
    else if (request.answered >= request.expected) request.resolve(undefined);
  }
}
