// Opens a URL in the person's browser, quietly: where there is none, the URL printed beside it is
// the way. SEXTANT_NO_BROWSER turns it off (tests, remote shells).
import { spawn } from 'node:child_process';

/** Opens `url` unless SEXTANT_NO_BROWSER is set (or, with `onlyInteractive`, stdout is no terminal). */
export function openBrowser(url: string, env: NodeJS.ProcessEnv, opts: { onlyInteractive?: boolean } = {}): void {
  if (env['SEXTANT_NO_BROWSER'] || (opts.onlyInteractive && !process.stdout.isTTY)) return;
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    spawn(cmd, [url], { stdio: 'ignore', detached: true }).on('error', () => undefined).unref();
  } catch {
    // No browser here: the URL is printed.
  }
}
