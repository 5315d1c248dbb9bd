// Downloads of answer data: access through chats, rows through the governed data pipeline.
export { CONTENT_TYPES, prepareDownload, type DownloadDeps, type DownloadFormat, type DownloadRequest, type PreparedDownload } from './prepare-download.ts';
export { downloadFilename } from './filename.ts';
export { sheetNumber } from './sheet-values.ts';
