export { csvField, csvLine, toCsv } from './csv.ts';
export { executeQuery, type QueryResult } from './execute-query.ts';
export { getLoggedQuery, logQuery, topTables, type LoggedQuery, type QueryLogEntry, type TableUsage } from './query-log.ts';
export { streamQuery, type GovernedQueryArgs, type GovernedStream } from './stream-query.ts';
