#!/usr/bin/env node
// Runs the CLI from its TypeScript sources (tsx); the self-contained build is served at /api/cli/download.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/run.ts');
