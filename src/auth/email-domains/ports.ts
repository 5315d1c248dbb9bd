// What email-domain verification asks of the world outside (implemented in src/compose/dns-txt-records.ts).

/** The TXT records of a name, each as its strings joined; `undefined` when DNS did not answer. */
export interface TxtRecords {
  /** `[]` for a name without TXT records (NXDOMAIN or no data). */
  lookup(name: string): Promise<string[] | undefined>;
}
