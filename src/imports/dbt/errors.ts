// The import's own failures: artifacts that cannot be read are a 422 naming the file and what is wrong.
import { ValidationFailed } from '../../errors.ts';

/** An artifact (`manifest` or `catalog`) that is not what the import reads; nothing is written. */
export class ArtifactInvalid extends ValidationFailed {
  constructor(field: 'manifest' | 'catalog', msg: string, type = 'value_error') {
    super([{ loc: ['body', field], msg, type }], `${field}: ${msg}`);
  }
}
