// Refresh by hand, or on an interval: both advance a tick the tiles run again on.
import { useEffect, useState } from 'react';

const INTERVALS = [
  { label: 'Off', ms: 0 },
  { label: 'Every minute', ms: 60_000 },
  { label: 'Every 5 minutes', ms: 300_000 },
  { label: 'Every 15 minutes', ms: 900_000 },
  { label: 'Every hour', ms: 3_600_000 },
];

export function RefreshControls({ onRefresh }: { onRefresh: () => void }) {
  const [every, setEvery] = useState(0);
  useEffect(() => {
    if (every === 0) return;
    const timer = setInterval(onRefresh, every);
    return () => clearInterval(timer);
  }, [every, onRefresh]);
  return (
    <>
      <button type="button" onClick={onRefresh}>
        Refresh
      </button>
      <label>
        Auto-refresh{' '}
        <select value={every} onChange={(e) => setEvery(Number(e.target.value))}>
          {INTERVALS.map((i) => (
            <option key={i.ms} value={i.ms}>
              {i.label}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}
