// Chat uploads: storing files and archives per chat session, and querying the data files among them.
export { ArchiveRefused, ChatUploadLimitReached, UnsupportedFileType, UploadQueryFailed, UploadQueryRefused, UploadTooLarge, type ArchiveRefusal } from './errors.ts';
export { extractZip, type ExtractedFile } from './extract-zip.ts';
export { DATA_KINDS, detectKind, kindFromName, type FileKind } from './file-types.ts';
export { defaultUploadLimits, type UploadLimits, type ZipLimits } from './limits.ts';
export { queryUploads, type UploadQueryOptions } from './query-uploads.ts';
export type { UploadQueryResult, UploadTable } from './upload-types.ts';
export { uploadSessionDir, type UploadSession } from './session-dir.ts';
export { createUploadStore, type IncomingFile, type UploadedFile, type UploadStore, type UploadStoreDeps } from './store-upload.ts';
