export { checkStatement } from './check-statement.ts';
export { executeQuery, type QueryResult } from './execute-query.ts';
export { loggedParams, loggedQueryToRerun, logQuery, topTables, type LoggedQuery, type QueryLogEntry, type QueryToRerun, type TableUsage } from './query-log.ts';
export { governStatement, streamGoverned, streamQuery, type GovernedQueryArgs, type GovernedStatement, type GovernedStream } from './stream-query.ts';
export { copyQueryCsv, type GovernedCsvCopy } from './copy-query-csv.ts';
export { filterResultSql, resultColumnsSql, type BoundStatement, type ResultFilter } from './filter-result.ts';
export { requestReads, type RequestReads } from './request-reads.ts';
export { executeShared, sharedExecutions, type SharedExecutions, type SharedRows } from './shared-query.ts';
