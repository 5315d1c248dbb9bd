// `sextant login`, `logout`, `status`: the device sign-in of /api/auth/cli/login/*.
import { CliError, EXIT } from '../errors.ts';
import { apiError } from '../http.ts';
import type { CommandContext } from '../context.ts';
import { openBrowser } from '../open-browser.ts';

interface Started {
  code: string;
  user_code: string;
  authorize_url: string;
  expires_in: number;
  interval: number;
}
type Poll = { status: 'pending'; interval: number } | { status: 'complete'; token: string; email: string; org_id: string };
interface Me {
  user_id?: string;
  email?: string;
  name?: string;
  org_id?: string;
  role?: string;
}

/** Signs in with a token given on the command line, or through the browser approval page. */
export async function login(ctx: CommandContext): Promise<void> {
  const { client, out, settings } = ctx;
  const given = ctx.flags.token ?? ctx.env['SEXTANT_TOKEN'];
  if (given) {
    const me = await client.json<Me>('GET', '/api/auth/me');
    ctx.save({ ...ctx.saved, server: settings.server, token: given });
    out.out(out.json ? JSON.stringify({ signed_in: true, ...me }) : `Signed in to ${settings.server} as ${me.email ?? me.user_id}.`);
    return;
  }
  const started = await client.json<Started>('POST', '/api/auth/cli/login/start');
  out.progress(`Open ${started.authorize_url}\nand check that it shows the code ${started.user_code}.\nWaiting for approval...\n`);
  openBrowser(started.authorize_url, ctx.env, { onlyInteractive: true });
  const result = await pollUntilDone(ctx, started);
  ctx.save({ ...ctx.saved, server: settings.server, token: result.token });
  out.out(out.json ? JSON.stringify({ signed_in: true, email: result.email, org_id: result.org_id }) : `Signed in to ${settings.server} as ${result.email}.`);
}

async function pollUntilDone(ctx: CommandContext, started: Started) {
  const deadline = Date.now() + started.expires_in * 1000;
  const floor = Number(ctx.env['SEXTANT_POLL_MS'] ?? 0) || started.interval * 1000;
  let wait = floor;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, wait));
    const res = await ctx.client.raw('GET', '/api/auth/cli/login/poll', { query: { code: started.code } });
    if (res.ok) {
      const poll = (await res.json()) as Poll;
      if (poll.status === 'complete') return poll;
      wait = floor;
      continue;
    }
    if (res.status === 429 || res.status >= 500) {
      wait = Math.min(wait * 2, 30_000); // back off while the server is busy
      continue;
    }
    if (res.status === 403) throw new CliError('The sign-in was denied in the browser. Run `sextant login` again if that was a mistake.', EXIT.signedOut);
    if (res.status === 410) break;
    throw await apiError(res);
  }
  throw new CliError('The sign-in code expired before it was approved. Run `sextant login` again.', EXIT.signedOut);
}

/** Forgets the saved token (and the active environment). */
export function logout(ctx: CommandContext): void {
  const { token: _t, environment: _e, ...rest } = ctx.saved;
  ctx.save(rest);
  ctx.out.out(ctx.out.json ? JSON.stringify({ signed_in: false }) : 'Signed out.');
}

/** Who the CLI acts as, where, and in which environment. */
export async function status(ctx: CommandContext): Promise<void> {
  const { settings, out } = ctx;
  if (!settings.token) throw new CliError('Not signed in. Run `sextant login`.', EXIT.signedOut);
  const me = await ctx.client.json<Me>('GET', '/api/auth/me');
  const env = settings.environment ?? 'production';
  if (out.json) {
    out.out(JSON.stringify({ server: settings.server, user: me, environment: env, environment_source: settings.environmentSource }));
    return;
  }
  out.out(`Server:       ${settings.server}\nUser:         ${me.email ?? me.user_id}${me.name ? ` (${me.name})` : ''}\nOrganization: ${me.org_id ?? '?'}\nRole:         ${me.role ?? '?'}\nEnvironment:  ${env} (${settings.environmentSource})`);
}
