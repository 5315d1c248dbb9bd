// The gateway in a process of its own, as `npm start` (or `npm run dev`) runs it: for tests of what
// only a real process shows (signals, the production build).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

const ROOT = new URL('../..', import.meta.url).pathname;

export interface GatewayProcess {
  proc: ChildProcessWithoutNullStreams;
  url: string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** How the process ended and the end of what it wrote to stderr: for the message of a failed assertion. */
  ending: () => string;
}

/** Starts `node <args>` in the repository with `env` added, and resolves once it says where it listens. */
export async function startGatewayProcess(args: string[], env: Record<string, string>): Promise<GatewayProcess> {
  const proc = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, SEXTANT_PORT: '0', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  proc.stdin.end();
  let err = '';
  proc.stderr.setEncoding('utf8').on('data', (d: string) => (err = (err + d).slice(-4096)));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', resolve));
  // The log line says where it listens (port 0: the system chose).
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /"url":"(http:\/\/[^"]+)".*"msg":"Sextant is listening"/.exec(out);
      if (m) resolve(m[1]!);
    });
    void exited.then((code) => reject(new Error(`the gateway exited with ${code}: ${out}${err}`)));
  });
  return { proc, url, exited, ending: () => `exit code ${proc.exitCode}, signal ${proc.signalCode}, stderr: ${err}` };
}

/**
 * Lets the demo's production be written directly again (the demo changes it only through
 * environments): for tests of a gateway process that write production, as the in-process harness does.
 */
export async function writeDemoProductionDirectly(url: string): Promise<void> {
  const post = (path: string, body: unknown, token?: string, method = 'POST') =>
    fetch(url + path, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  const signedIn = await post('/api/auth/token', { username: 'admin@demo.sextant.local', password: 'demo-admin-password' });
  const { access_token: token } = (await signedIn.json()) as { access_token: string };
  const res = await post('/api/admin/organization/settings', { production_through_environments: false }, token, 'PATCH');
  if (res.status !== 200) throw new Error(`turning the demo's setting off answered ${res.status}: ${await res.text()}`);
}
