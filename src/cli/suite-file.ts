// Reading an evaluation suite file offline: YAML (or JSON) checked against the same schema the
// service enforces (src/shared), so `sextant eval validate` needs no server and no token. The commands
// import it when they read a file: YAML and zod are ~0.25 s of CPU that every other run of the CLI
// (`sextant ask`, `--version`) would pay at start.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { EvaluationSuite } from '../shared/evaluation-suite.ts';
import { CliError } from './errors.ts';

export interface SuiteCheck {
  suite?: EvaluationSuite;
  /** One line per problem: `questions.0.expected_answer: …`. */
  problems: string[];
}

/** Parses and checks a suite file; throws only when it cannot be read at all. */
export function checkSuiteFile(path: string): SuiteCheck {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new CliError(`Cannot read ${path}: ${(err as Error).message}`, 2);
  }
  let value: unknown;
  try {
    value = parse(text);
  } catch (err) {
    return { problems: [`not valid YAML: ${(err as Error).message.split('\n')[0]}`] };
  }
  const result = EvaluationSuite.safeParse(value);
  if (result.success) return { suite: result.data, problems: [] };
  const problems = result.error.issues.flatMap((i) => {
    const at = i.path.map(String).join('.');
    if (i.code === 'unrecognized_keys') return i.keys.map((k) => `${at ? `${at}.` : ''}${k}: unknown field`);
    return [`${at || '(file)'}: ${i.message}`];
  });
  return { problems };
}

/** The suite of a file that must be valid; a CliError (exit 1) listing its problems otherwise. */
export function validSuite(path: string): EvaluationSuite {
  const { suite, problems } = checkSuiteFile(path);
  if (!suite) throw new CliError(`${path} is not a valid evaluation suite:\n  ${problems.join('\n  ')}`, 1);
  return suite;
}
