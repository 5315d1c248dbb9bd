// A real git smart-HTTP server for push tests: system git's `git http-backend` CGI behind a small
// Node HTTP bridge on loopback, with optional Basic authentication.
import { execFileSync, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface GitHttpServer {
  /** Base URL; a repository `name.git` under the root is at `${url}/name.git`. */
  url: string;
  /** Requests seen (method and path), for assertions. */
  requests: { method: string; path: string; user: string | undefined }[];
  stop(): Promise<void>;
}

/** Creates a bare repository with HEAD on main (HEAD on a missing master breaks fetch). */
export function createBareRemote(root: string, name: string): string {
  const dir = join(root, `${name}.git`);
  execFileSync('git', ['init', '--quiet', '--bare', '-b', 'main', dir]);
  return dir;
}

/** `{ 'refs/heads/main': oid, ... }` of a bare repository. */
export function remoteRefs(dir: string): Record<string, string> {
  const out = execFileSync('git', ['--git-dir', dir, 'for-each-ref', '--format=%(refname) %(objectname)'], { encoding: 'utf8' });
  return Object.fromEntries(out.split('\n').filter(Boolean).map((l) => l.split(' ') as [string, string]));
}

/** A file's content at a ref of a bare repository, or undefined. */
export function remoteFile(dir: string, ref: string, path: string): string | undefined {
  try {
    return execFileSync('git', ['--git-dir', dir, 'show', `${ref}:${path}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

/** Serves every repository under `root`; with `auth`, Basic credentials are required. */
export async function startGitHttpServer({ root, auth }: { root: string; auth?: { username: string; password: string } }): Promise<GitHttpServer> {
  const requests: GitHttpServer['requests'] = [];
  const backend = execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim() + '/git-http-backend';
  const server = createServer((req, res) => handle(req, res).catch(() => (res.headersSent ? res.end() : res.writeHead(500).end())));
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const presented = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const [user, pass] = presented ? Buffer.from(presented, 'base64').toString().split(':') : [];
    requests.push({ method: req.method ?? '', path: url.pathname, user });
    if (auth && (user !== auth.username || pass !== auth.password)) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end();
      return;
    }
    const cgi = spawn(backend, [], {
      env: {
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        // http-backend allows receive-pack only for an authenticated user.
        REMOTE_USER: user ?? 'anonymous',
        REMOTE_ADDR: '127.0.0.1',
        PATH: process.env['PATH'] ?? '',
      },
    });
    req.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on('data', (c: Buffer) => chunks.push(c));
    await new Promise<void>((resolve) => cgi.on('close', () => resolve()));
    const out = Buffer.concat(chunks);
    const split = out.indexOf('\r\n\r\n');
    const head = out.subarray(0, split).toString();
    const headers: Record<string, string> = {};
    let status = 200;
    for (const line of head.split('\r\n')) {
      const i = line.indexOf(':');
      const name = line.slice(0, i).trim();
      const value = line.slice(i + 1).trim();
      if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
      else headers[name] = value;
    }
    res.writeHead(status, headers).end(out.subarray(split + 4));
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
