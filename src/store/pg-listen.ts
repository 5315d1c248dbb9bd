// A dedicated PostgreSQL connection that LISTENs on one channel: each notification, and each
// (re)connection (notifications sent while it was away are lost), calls `notified`. It reconnects
// after a loss, waiting a little longer each time up to a few seconds. Imported by path (pg).
import pg from 'pg';

export interface PgListener {
  close(): Promise<void>;
}

const MAX_WAIT_MS = 5000;

/** Listens on `channel` of the database at `url` until closed; resolves once the first LISTEN is in place. */
export async function pgListen(url: string, channel: string, notified: () => void): Promise<PgListener> {
  let closed = false;
  let client: pg.Client | undefined;
  let wait = 100;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    c.on('error', () => {}); // a lost server also ends the client: 'end' reconnects
    c.on('notification', (n) => n.channel === channel && notified());
    c.on('end', () => {
      if (!closed) setTimeout(() => void reconnect(), wait).unref();
    });
    await c.connect();
    await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    client = c;
    wait = 100;
    notified();
  };
  const reconnect = async () => {
    wait = Math.min(wait * 2, MAX_WAIT_MS);
    try {
      if (!closed) await connect();
    } catch {
      if (!closed) setTimeout(() => void reconnect(), wait).unref();
    }
  };
  await connect();
  return {
    async close() {
      closed = true;
      await client?.end();
    },
  };
}
