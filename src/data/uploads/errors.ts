import { AppError } from '../../errors.ts';

/** A file larger than the per-file limit. */
export class UploadTooLarge extends AppError {
  constructor(limitBytes: number) {
    super('too_large', 'UPLOAD_TOO_LARGE', `The file exceeds the upload limit of ${limitBytes} bytes`, { limit_bytes: limitBytes });
  }
}

/** The chat's uploads would exceed the per-chat limit. */
export class ChatUploadLimitReached extends AppError {
  constructor(limitBytes: number, usedBytes: number) {
    super('too_large', 'CHAT_UPLOAD_LIMIT', `Uploads of this chat would exceed ${limitBytes} bytes`, { limit_bytes: limitBytes, used_bytes: usedBytes });
  }
}

/** Not one of the accepted kinds (data files, text, images, PDF, ZIP), or content that contradicts its name. */
export class UnsupportedFileType extends AppError {
  constructor(name: string) {
    super('invalid', 'UNSUPPORTED_FILE_TYPE', `Unsupported file type: ${name}. Accepted: CSV, TSV, Parquet, JSON, XLSX, text, images, PDF and ZIP`);
  }
}

export type ArchiveRefusal =
  | 'path_traversal'
  | 'absolute_path'
  | 'link'
  | 'too_many_entries'
  | 'too_much_data'
  | 'compression_ratio'
  | 'nesting_too_deep'
  | 'encrypted'
  | 'duplicate_entry'
  | 'invalid_archive';

/** A ZIP archive refused by the extraction checks; nothing of it is kept. */
export class ArchiveRefused extends AppError {
  constructor(
    readonly reason: ArchiveRefusal,
    detail: string,
  ) {
    super('invalid', 'ARCHIVE_REFUSED', `The archive was refused (${reason.replaceAll('_', ' ')}): ${detail}`, { reason });
  }
}

/** Only one SELECT may run against uploaded files. */
export class UploadQueryRefused extends AppError {
  constructor(readonly detail: string) {
    super('invalid', 'QUERY_REFUSED', `Only a single SELECT query may run on uploaded files: ${detail}`);
  }
}

/** The query failed inside DuckDB (unknown table, type error...); the message is DuckDB's. */
export class UploadQueryFailed extends AppError {
  constructor(detail: string) {
    super('invalid', 'QUERY_FAILED', detail.split('\n')[0]!.slice(0, 500));
  }
}
