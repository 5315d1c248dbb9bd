// Rows on their way from SQLite to PostgreSQL: the one value PostgreSQL cannot hold, and the checksum
// both sides are compared by.
import { createHash } from 'node:crypto';

/**
 * PostgreSQL text cannot hold U+0000 (SQLite's can). A copy that stopped at the first such character
 * would leave an installation unable to move for one odd pasted message, so the character becomes
 * U+FFFD (the replacement character) and the report counts every value changed this way. The
 * checksums compare the values as written, so they still prove nothing else changed.
 */
export function pgSafeRow(row: unknown[], where: () => string): { row: unknown[]; altered: number } {
  let altered = 0;
  const out = row.map((value) => {
    if (typeof value === 'string') {
      if (!value.includes('\u0000')) return value;
      altered++;
      return value.replaceAll('\u0000', '\uFFFD');
    }
    if (value === null || typeof value === 'number') return value;
    if (typeof value === 'bigint') return Number(value);
    throw new Error(`${where()}: a ${value instanceof Uint8Array ? 'BLOB' : typeof value} value, which no column of the service holds`);
  });
  return { row: out, altered };
}

/**
 * An order-independent checksum of a table's rows: the sum, modulo 2^256, of each row's SHA-256 over
 * its values as JSON. Each side reads in whatever order suits it, and memory stays constant.
 */
export class RowChecksum {
  private sum = 0n;
  rows = 0;

  add(row: unknown[]): void {
    const digest = createHash('sha256').update(JSON.stringify(row)).digest('hex');
    this.sum = (this.sum + BigInt(`0x${digest}`)) & ((1n << 256n) - 1n);
    this.rows++;
  }

  get hex(): string {
    return this.sum.toString(16).padStart(64, '0');
  }
}
