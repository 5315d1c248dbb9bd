// The SQL text box of the editor: CodeMirror 6 with its SQL language (highlighting, brackets, the
// warehouse's keywords) completing the catalog's tables and columns as one types; Ctrl/Cmd-Enter runs.
// The text stays the page's state: the editor reports every change and follows a new `value`.
import type { CompletionContext } from '@codemirror/autocomplete';
import { MySQL, PostgreSQL, SQLite, sql, StandardSQL, type SQLDialect } from '@codemirror/lang-sql';
import { Compartment, EditorState } from '@codemirror/state';
import { keymap } from '@codemirror/view';
import { basicSetup, EditorView } from 'codemirror';
import { useEffect, useRef } from 'react';
import { columnsInScope, type SqlNamespace } from './completion-schema.ts';

/** The page's colors (theme.css variables), so the editor and its completion list follow light and dark mode. */
const PAGE_COLORS = EditorView.theme({
  '&': { color: 'var(--text)', backgroundColor: 'var(--bg)' },
  '.cm-content': { caretColor: 'var(--text)', fontFamily: 'var(--mono)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--text)' },
  '.cm-gutters': { backgroundColor: 'var(--surface)', color: 'var(--muted)', borderColor: 'var(--border)' },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'var(--surface)' },
  '.cm-tooltip': { backgroundColor: 'var(--bg)', color: 'var(--text)', border: '1px solid var(--border)' },
  '.cm-tooltip-autocomplete > ul > li[aria-selected]': { backgroundColor: 'var(--primary)', color: 'var(--primary-text)' },
});

const DIALECTS: Record<string, SQLDialect> = { postgresql: PostgreSQL, duckdb: PostgreSQL, mysql: MySQL, mariadb: MySQL, sqlite: SQLite };

interface CodeEditorProps {
  value: string;
  onChange: (sql: string) => void;
  onRun: () => void;
  namespace: SqlNamespace;
  defaultSchema: string | undefined;
  dialect: string | undefined;
  label: string;
}

/** The language with the catalog: lang-sql's own tables and `table.column` completion, plus the read tables' columns unqualified. */
function language(p: Pick<CodeEditorProps, 'namespace' | 'defaultSchema' | 'dialect'>) {
  const lang = sql({ dialect: DIALECTS[p.dialect ?? ''] ?? StandardSQL, schema: p.namespace, ...(p.defaultSchema !== undefined ? { defaultSchema: p.defaultSchema } : {}), upperCaseKeywords: true });
  const inScope = (ctx: CompletionContext) => {
    const word = ctx.matchBefore(/[\w$]*/);
    if (!word || (word.from === word.to && !ctx.explicit) || ctx.state.sliceDoc(word.from - 1, word.from) === '.') return null;
    const options = columnsInScope(ctx.state.doc.toString(), p.namespace, p.defaultSchema);
    return options.length ? { from: word.from, options, validFor: /^[\w$]*$/ } : null;
  };
  return [lang, lang.language.data.of({ autocomplete: inScope })];
}

export function CodeEditor({ value, onChange, onRun, namespace, defaultSchema, dialect, label }: CodeEditorProps) {
  const box = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | undefined>(undefined);
  const lang = useRef(new Compartment());
  const handlers = useRef({ onChange, onRun });
  handlers.current = { onChange, onRun };
  useEffect(() => {
    const v = new EditorView({
      parent: box.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          keymap.of([{ key: 'Mod-Enter', run: () => (handlers.current.onRun(), true) }]),
          basicSetup,
          PAGE_COLORS,
          lang.current.of(language({ namespace, defaultSchema, dialect })),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) handlers.current.onChange(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    return () => v.destroy();
    // Made once; later props reach it through the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    view.current?.dispatch({ effects: lang.current.reconfigure(language({ namespace, defaultSchema, dialect })) });
  }, [namespace, defaultSchema, dialect]);
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);
  return <div ref={box} className="code-editor" />;
}
