/** Size and shape limits of uploads; the gateway builds them from the configuration. */
export interface UploadLimits {
  /** Largest single uploaded file. */
  fileBytes: number;
  /** Largest total of one chat's uploads folder (extracted archives included). */
  chatBytes: number;
  zip: ZipLimits;
}

export interface ZipLimits {
  /** Entries across an archive and the archives nested in it. */
  maxEntries: number;
  /** Uncompressed bytes across an archive and the archives nested in it. */
  maxUncompressedBytes: number;
  /** Largest uncompressed/compressed ratio of one entry (zip bombs compress ~1000:1). */
  maxRatio: number;
  /** Archives inside archives: 1 allows one level of nesting. */
  maxDepth: number;
}

/** Defaults: 50 MB per file, 250 MB per chat, 1,000 entries, 500 MB uncompressed, ratio 100, one nested level. */
export function defaultUploadLimits(overrides: Partial<Omit<UploadLimits, 'zip'>> & { zip?: Partial<ZipLimits> } = {}): UploadLimits {
  return {
    fileBytes: overrides.fileBytes ?? 50 * 1024 * 1024,
    chatBytes: overrides.chatBytes ?? 250 * 1024 * 1024,
    zip: { maxEntries: 1000, maxUncompressedBytes: 500 * 1024 * 1024, maxRatio: 100, maxDepth: 1, ...overrides.zip },
  };
}
