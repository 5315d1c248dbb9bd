// The changed lines of each file of an environment's diff, as unified hunks (3 lines of context),
// so a person reviewing a merge sees what changed, not only which files.
import { structuredPatch } from 'diff';
import { readFile, type FileDiff, type GitRepo } from '../git/index.ts';

/** Files larger than this (either side) are listed without their lines: a review page shows text, not dumps. */
export const MAX_DIFF_FILE_CHARS = 200_000;

export interface Hunk {
  old_start: number;
  old_lines: number;
  new_start: number;
  new_lines: number;
  /** Each line prefixed by `+` (added), `-` (removed) or a space (context). */
  lines: string[];
}

export interface FileDiffWithLines extends FileDiff {
  hunks: Hunk[];
  /** True when the file was too large to show its lines. */
  lines_omitted: boolean;
}

/** Adds the changed lines between `from` and `to` to each file of a diff. */
export async function withLines(repo: GitRepo, from: string, to: string, files: FileDiff[]): Promise<FileDiffWithLines[]> {
  return Promise.all(
    files.map(async (file) => {
      const [before, after] = await Promise.all([readFile({ repo, ref: from, path: file.path }), readFile({ repo, ref: to, path: file.path })]);
      if ((before?.length ?? 0) > MAX_DIFF_FILE_CHARS || (after?.length ?? 0) > MAX_DIFF_FILE_CHARS) return { ...file, hunks: [], lines_omitted: true };
      const patch = structuredPatch(file.path, file.path, before ?? '', after ?? '', '', '', { context: 3 });
      const hunks = patch.hunks.map((h) => ({ old_start: h.oldStart, old_lines: h.oldLines, new_start: h.newStart, new_lines: h.newLines, lines: h.lines }));
      return { ...file, hunks, lines_omitted: false };
    }),
  );
}
