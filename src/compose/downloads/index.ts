// Downloads of answer data: access through chats, rows through the governed data pipeline.
export { CONTENT_TYPES, prepareDownload, prepareQueryDownload, type DownloadDeps, type DownloadFormat, type DownloadRequest, type PreparedDownload } from './prepare-download.ts';
export { downloadFilename } from './filename.ts';
export { prepareSavedDownload, type SavedDownloadRequest } from './prepare-saved-download.ts';
export { readAnswerRows, type AnswerRows, type AnswerRowsRequest } from './read-answer-rows.ts';
export { sheetNumber } from './sheet-values.ts';
