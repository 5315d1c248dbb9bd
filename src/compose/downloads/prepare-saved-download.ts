// The export of a saved question (GET /api/saved_questions/{id}/export, `sextant saved export`): the
// question as the caller may read it (src/saved), its SQL re-run through the governed pipeline as
// the caller, streamed as CSV or XLSX like an answer's download.
import type { Principal } from '../../auth/index.ts';
import type { DataDeps } from '../../data/deps.ts';
import { QuestionNotFound, savedQuestion, type SavedDeps } from '../../saved/index.ts';
import { safeFilename } from './filename.ts';
import { prepareQueryDownload, type DownloadFormat, type PreparedDownload } from './prepare-download.ts';

export interface SavedDownloadRequest {
  principal: Principal;
  /** `X-Service-Environment`; the governed pipeline ignores it for regular users. */
  environmentId: string | undefined;
  questionId: string;
  format: DownloadFormat;
  /** The `org_id` query parameter: when given it must be the caller's organization. */
  orgId?: string | undefined;
  /** Aborting stops the query in the warehouse (the client went away). */
  signal?: AbortSignal | undefined;
  /** When the file is made (named after it, as the rows are read now). */
  now: number;
}

/** A saved question's rows, read now as the caller, ready to stream; QuestionNotFound when not theirs to read. */
export async function prepareSavedDownload(deps: { saved: SavedDeps; data: DataDeps }, req: SavedDownloadRequest): Promise<PreparedDownload> {
  const { principal } = req;
  // Another organization's id is answered like a question that does not exist.
  if (req.orgId !== undefined && req.orgId !== principal.orgId) throw new QuestionNotFound();
  const q = await savedQuestion(deps.saved, principal, req.questionId);
  return prepareQueryDownload(deps.data, {
    args: {
      principal,
      environmentId: req.environmentId,
      connectionId: q.connection_id,
      sql: q.sql,
      source: req.format === 'csv' ? 'saved_export_csv' : 'saved_export_excel',
      signal: req.signal,
    },
    filename: `${safeFilename(q.title, 'Saved question')} ${new Date(req.now).toISOString().slice(0, 10)}.${req.format}`,
    format: req.format,
    signal: req.signal,
  });
}
