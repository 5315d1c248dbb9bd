// The SQL a result came from, folded by default, with a copy button.
import { CopyButton } from '../ui/copy-button.tsx';

export function SqlBlock({ sql }: { sql: string }) {
  return (
    <details className="sql">
      <summary>SQL</summary>
      <pre>
        <code>{sql}</code>
      </pre>
      <CopyButton text={sql} label="Copy SQL" />
    </details>
  );
}
