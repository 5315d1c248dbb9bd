// The container files agree with each other and stay buildable without a registry. The build and the
// compose stack themselves run in deploy/smoke-test.sh (.ci/run under CI=true); these checks are the
// cheap ones that catch a file edited without its partners.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const root = new URL('../..', import.meta.url).pathname;
const read = (path: string): string => readFileSync(join(root, path), 'utf8');

test('the Dockerfile takes its base images as arguments and names no registry of its own', (t) => {
  const dockerfile = read('Dockerfile');
  t.false(/^#\s*syntax=/m.test(dockerfile), 'a `# syntax=` line pulls a frontend image from a registry');
  t.regex(dockerfile, /^ARG BASE_IMAGE=/m);
  t.regex(dockerfile, /^ARG BUILD_IMAGE=/m);
  const froms = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
  t.deepEqual(froms, ['${BUILD_IMAGE}', '${BASE_IMAGE}']);
  t.regex(dockerfile, /^USER node$/m, 'the server runs unprivileged');
  t.regex(dockerfile, /deploy\/prune-runtime\.sh/);
});

test('the offline compose override names an image that deploy/offline-images.sh builds for every image compose pulls', (t) => {
  const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, { image?: string; build?: unknown }> };
  const offline = parse(read('deploy/compose.offline.yaml'), { merge: true }) as { services: Record<string, { image?: string; build?: { args: Record<string, string> } }> };
  const script = read('deploy/offline-images.sh');
  const built = new Set([...script.matchAll(/^build (\S+) /gm)].map((m) => `sextant-offline/${m[1]}:trixie`));
  for (const [name, service] of Object.entries(compose.services)) {
    const override = offline.services[name];
    t.truthy(override, `${name} is in deploy/compose.offline.yaml`);
    const images = service.build ? Object.values(override!.build!.args) : [override!.image!];
    for (const image of images) t.true(built.has(image), `${name}: ${image} is built by deploy/offline-images.sh`);
  }
});

test('the Caddyfile sends requests to every replica compose runs', (t) => {
  const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, { build?: unknown }> };
  const replicas = Object.entries(compose.services).filter(([, s]) => s.build).map(([name]) => name);
  t.true(replicas.length >= 2);
  const upstreams = /reverse_proxy ([^{]+)\{/.exec(read('deploy/Caddyfile'))![1]!.trim().split(/\s+/);
  t.deepEqual(upstreams.sort(), replicas.map((r) => `${r}:8080`).sort());
});

test('the deploy scripts are valid shell', (t) => {
  for (const file of readdirSync(join(root, 'deploy'), { recursive: true }) as string[]) {
    if (!file.endsWith('.sh')) continue;
    const shell = read(join('deploy', file)).startsWith('#!/usr/bin/env bash') ? 'bash' : 'sh';
    t.notThrows(() => execFileSync(shell, ['-n', join(root, 'deploy', file)]), file);
  }
});

test('the web client and its build chain are development dependencies, so the production image does not carry them', (t) => {
  const pkg = JSON.parse(read('package.json')) as { dependencies: Record<string, string> };
  for (const name of ['vite', '@vitejs/plugin-react', 'typescript', 'react', 'react-dom', 'react-router', 'vega-embed']) {
    t.false(name in pkg.dependencies, `${name} is a devDependency`);
  }
});
