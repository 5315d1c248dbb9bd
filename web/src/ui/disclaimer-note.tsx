// A disclaimer the person can dismiss for good (Settings brings it back). Shown only once the
// server said it was not dismissed, so it never flashes for someone who dismissed it.
import { useState } from 'react';
import { api, call } from '../api/client.ts';
import { disclaimerHash, type Disclaimer } from '../lib/disclaimers.ts';
import { useAction } from './use-action.ts';
import { useLoad } from './use-load.ts';

export function DisclaimerNote({ disclaimer }: { disclaimer: Disclaimer }) {
  const hash = disclaimerHash(disclaimer);
  const dismissed = useLoad((signal) => call(api.GET('/api/auth/get_dismissed_disclaimers', { signal })));
  const [hidden, setHidden] = useState(false);
  const dismiss = useAction(async () => {
    await call(api.POST('/api/auth/dismiss_disclaimer', { body: { disclaimer_hash: hash } }));
    setHidden(true);
  });
  if (hidden || !dismissed.data || dismissed.data[hash]) return null;
  return (
    <div className="disclaimer" role="note">
      <p>{disclaimer.text}</p>
      <button type="button" className="link" aria-label="Dismiss this note" disabled={dismiss.pending} onClick={() => void dismiss.run()}>
        Dismiss
      </button>
      {dismiss.problem && <span className="field-error">{dismiss.problem.message}</span>}
    </div>
  );
}
