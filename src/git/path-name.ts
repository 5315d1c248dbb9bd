// The one rule for names that become files in a repository: what git can hold in a tree (a NUL ends a
// name in git's tree format, so a NUL once wrote a malformed tree) and what people can check out on
// Linux, macOS and Windows from the mirror. Every path a commit writes passes here first.

/** Longest file name (one path segment) in UTF-8 bytes: the limit of ext4, APFS and NTFS. */
export const MAX_SEGMENT_BYTES = 255;
/** Longest path in UTF-8 bytes (Windows checkouts with long paths, Linux PATH_MAX). */
export const MAX_PATH_BYTES = 1024;

// Windows device names, reserved with any extension (`con.yaml`, `nul.orders.yaml`).
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;
// Characters git (HFS+, NTFS protections) ignores when it compares a name with `.git`.
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
const CONTROL = /\p{Cc}/u;

/** Why one path segment cannot be a file name, or undefined when it can. */
export function segmentProblem(segment: string): string | undefined {
  if (segment === '') return 'empty name';
  if (CONTROL.test(segment)) return 'contains a control character (NUL, newline, tab...)';
  if (/[/\\]/.test(segment)) return 'contains / or \\';
  if (segment === '.' || segment === '..') return 'is . or ..';
  if (segment !== segment.normalize('NFC')) return 'is not in Unicode normalization form C';
  if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) return `is longer than ${MAX_SEGMENT_BYTES} bytes`;
  if (/[. ]$/.test(segment)) return 'ends with a dot or a space (Windows drops them)';
  if (/^\s/.test(segment)) return 'starts with a space';
  const bare = segment.replace(IGNORABLE, '').toLowerCase();
  if (/^\.git($|[. ])/.test(bare) || /^git~\d+$/.test(bare)) return 'is reserved by git (.git)';
  if (RESERVED.test(segment.split('.')[0]!)) return 'is a reserved device name on Windows';
  return undefined;
}

/** Why a slash-separated relative path cannot be written, or undefined when it can. */
export function pathProblem(path: string): string | undefined {
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) return `is longer than ${MAX_PATH_BYTES} bytes`;
  for (const segment of path.split('/')) {
    const problem = segmentProblem(segment);
    if (problem) return segment === path ? problem : `${JSON.stringify(segment)} ${problem}`;
  }
  return undefined;
}

/** Relative, slash-separated, every segment a name git and people can hold. */
export function isCleanPath(path: string): boolean {
  return pathProblem(path) === undefined;
}
