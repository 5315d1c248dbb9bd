// A loopback server speaking the part of the GitHub REST API used to open pull requests
// (POST /repos/{owner}/{repo}/pulls), also under a GitHub Enterprise prefix such as /api/v3.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PullRequestCall {
  path: string;
  authorization: string | undefined;
  body: { title: string; head: string; base: string; body?: string };
}

export interface GitHubApi {
  url: string;
  calls: PullRequestCall[];
  stop(): Promise<void>;
}

/** Starts the fake; `headExists` decides whether a head branch is known (else 422 like GitHub). */
export async function startGitHubApi({ prefix = '', headExists = () => true }: { prefix?: string; headExists?: (head: string) => boolean } = {}): Promise<GitHubApi> {
  const calls: PullRequestCall[] = [];
  let next = 1;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const m = new RegExp(`^${prefix}/repos/([^/]+)/([^/]+)/pulls$`).exec(url.pathname);
      const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method !== 'POST' || !m) return json(404, { message: 'Not Found' });
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as PullRequestCall['body'];
      calls.push({ path: url.pathname, authorization: req.headers.authorization, body });
      if (!headExists(body.head)) return json(422, { message: 'Validation Failed', errors: [{ resource: 'PullRequest', field: 'head', code: 'invalid' }] });
      const number = next++;
      return json(201, {
        number,
        state: 'open',
        title: body.title,
        html_url: `https://github.example/${m[1]}/${m[2]}/pull/${number}`,
        head: { ref: body.head },
        base: { ref: body.base },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}${prefix}`, calls, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
