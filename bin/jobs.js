#!/usr/bin/env node
// Loads the built CLI, nothing else. The only place that calls process.exit.
import { run } from '../dist/cli.js';

process.exit(await run(process.argv.slice(2), { handleSignals: true }));
