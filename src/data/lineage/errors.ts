import { AppError } from '../../errors.ts';

/** The SQL could not be parsed in the given dialect. */
export class SqlParseFailed extends AppError {
  constructor(dialect: string, detail: string) {
    super('invalid', 'SQL_PARSE_FAILED', `Could not parse the query as ${dialect} SQL: ${detail}`, { dialect });
  }
}

/** Lineage is defined for one SELECT (or WITH ... SELECT, set operation) only. */
export class NotASingleSelect extends AppError {
  constructor() {
    super('invalid', 'NOT_A_SINGLE_SELECT', 'Lineage needs exactly one SELECT statement');
  }
}
