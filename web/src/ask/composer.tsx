// Where a question is typed: Enter sends, Shift+Enter starts a new line. While an answer runs, what
// is typed goes to it as a remark, and Stop ends it. Files come by button or drag and drop.
import { useEffect, useId, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { ApiProblem } from '../api/problem.ts';
import { useDraft } from '../lib/drafts.ts';
import { askProblemText } from './ask-problem.ts';
import { uploadFile, type UploadedFile } from './upload-files.ts';

interface ComposerProps {
  chatId: string;
  draftKey: string;
  running: boolean;
  onAsk: (text: string) => Promise<boolean>;
  onRemark: (text: string) => Promise<void>;
  onStop: () => Promise<void>;
  /** What went wrong with the last question or its answer, shown here where the person looks. */
  problem?: ApiProblem | undefined;
}

export function Composer({ chatId, draftKey, running, onAsk, onRemark, onStop, problem: answerProblem }: ComposerProps) {
  // The chat the text was typed for, as of the last render: when it gets its address while its first
  // answer runs, its draft key changes from the new chat's to its own, and the text moves with it.
  const typedFor = useRef(chatId);
  const [text, setText] = useDraft(draftKey, (_from, to) => to === typedFor.current);
  useEffect(() => {
    typedFor.current = chatId;
  }, [chatId]);
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const [files, setFiles] = useState<UploadedFile[]>([]);
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const id = useId();

  const send = async () => {
    const message = text.trim();
    if (!message || sending) return;
    setSending(true);
    setProblem(undefined);
    try {
      if (running) {
        await onRemark(message);
        setText('');
      } else if (await onAsk(message)) {
        setText('');
        setFiles([]);
      }
    } catch (err) {
      setProblem(err instanceof ApiProblem ? askProblemText(err, message.length) : 'Could not send. Try again.');
    } finally {
      setSending(false);
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };
  const upload = async (list: FileList | File[]) => {
    setProblem(undefined);
    for (const file of Array.from(list)) {
      try {
        const done = await uploadFile(chatId, file);
        setFiles((f) => [...f, done]);
      } catch (err) {
        setProblem(`${file.name}: ${err instanceof ApiProblem ? (Object.values(err.fields)[0] ?? err.message) : 'upload failed'}`);
      }
    }
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer.files.length) void upload(e.dataTransfer.files);
  };
  const label = running ? 'Add a remark for the running answer' : 'Your question';
  return (
    <div className="composer-dock">
      <div
        className={dragging ? 'composer dragging' : 'composer'}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        {(problem ?? answerProblem) && (
          <div className="alert error" role="alert">
            {problem ?? askProblemText(answerProblem!, text.trim().length)}
          </div>
        )}
        {files.length > 0 && (
          <ul className="attachments" aria-label="Attached files">
            {files.map((f) => (
              <li key={f.file_id}>{f.original_name}</li>
            ))}
          </ul>
        )}
        <label htmlFor={id} className="visually-hidden">
          {label}
        </label>
        <textarea id={id} rows={2} value={text} onChange={(e) => setText(e.target.value)} onKeyDown={onKeyDown} placeholder={running ? 'Add a remark for the running answer…' : 'Ask a question about your data…'} aria-describedby={`${id}-hint`} />
        <div className="row">
          <input ref={fileInput} type="file" className="visually-hidden" tabIndex={-1} aria-hidden="true" multiple onChange={(e) => e.target.files && void upload(e.target.files)} />
          <button type="button" onClick={() => fileInput.current?.click()}>
            Attach files
          </button>
          <span id={`${id}-hint`} className="muted">
            Enter sends, Shift+Enter starts a new line
          </span>
          <span className="spacer" />
          {running && (
            <button type="button" className="danger" onClick={() => void onStop()}>
              Stop
            </button>
          )}
          <button type="button" className="primary" disabled={sending || !text.trim()} onClick={() => void send()}>
            {running ? 'Send remark' : 'Ask'}
          </button>
        </div>
      </div>
    </div>
  );
}
