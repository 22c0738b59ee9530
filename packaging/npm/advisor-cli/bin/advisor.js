#!/usr/bin/env node
// The `advisor` command of the npm package advisor-cli.
//
// The binary itself is in one package per platform (advisor-cli-linux-x64, ...), listed
// as optionalDependencies with `os`, `cpu` and `libc`: npm installs the one that fits, and
// there is no install script (so `npm ci --ignore-scripts` installs a working command).
// This file finds that binary and runs it: arguments, stdin, stdout and stderr, the exit
// status and the ending signal pass through. On Linux it picks glibc or musl at run time,
// since an npm without `libc` support installs both.
//
// When it cannot run the binary it says why in one line on stderr and exits 1 — never 2,
// which Claude Code and Gemini CLI read as "block" from a hook.
'use strict';

const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

// `${process.platform}-${process.arch}` (plus the C library on Linux) -> platform package
const PACKAGES = {
  'linux-x64-glibc': 'advisor-cli-linux-x64',
  'linux-x64-musl': 'advisor-cli-linux-x64-musl',
  'linux-arm64-glibc': 'advisor-cli-linux-arm64',
  'darwin-x64': 'advisor-cli-darwin-x64',
  'darwin-arm64': 'advisor-cli-darwin-arm64',
  'win32-x64': 'advisor-cli-win32-x64',
};

const FROM_SOURCE = 'cargo install --locked --path crates/advisor-cli in a checkout of advisor';

function fail(message) {
  process.stderr.write(`advisor (npm package advisor-cli): ${message}\n`);
  process.exit(1);
}

// The directory of an installed package, or null.
function installed(name) {
  try {
    return path.dirname(require.resolve(`${name}/package.json`));
  } catch (_) {
    return null;
  }
}

// Whether this Linux runs on musl: Node reports the glibc it runs on, and none on musl.
function isMusl() {
  try {
    if (process.report && 'excludeNetwork' in process.report) process.report.excludeNetwork = true;
    const header = process.report.getReport().header;
    return !header.glibcVersionRuntime;
  } catch (_) {
    try {
      return fs.readFileSync('/usr/bin/ldd', 'latin1').includes('musl');
    } catch (_) {
      return false;
    }
  }
}

// The platform package to run, and its directory.
function pick() {
  const base = `${process.platform}-${process.arch}`;
  if (process.platform !== 'linux') {
    const name = PACKAGES[base];
    return name ? { key: base, name, dir: installed(name) } : { key: base };
  }
  const glibc = PACKAGES[`${base}-glibc`];
  const musl = PACKAGES[`${base}-musl`];
  const found = [glibc, musl].filter(Boolean).map((name) => ({ name, dir: installed(name) }));
  const present = found.filter((f) => f.dir);
  // an npm with `libc` support installed only the package of this machine's C library
  if (present.length === 1) return { key: base, ...present[0] };
  const key = `${base}-${isMusl() ? 'musl' : 'glibc'}`;
  const name = PACKAGES[key];
  return name ? { key, name, dir: installed(name) } : { key };
}

function main() {
  const { key, name, dir } = pick();
  if (!name) {
    fail(`no prebuilt binary for ${key} (there are: ${Object.keys(PACKAGES).join(', ')}); build it instead: ${FROM_SOURCE}`);
  }
  if (!dir) {
    fail(`its platform package ${name} is not installed (optional dependencies were left out: --omit=optional, ` +
      `--no-optional, or a lockfile made elsewhere without it); reinstall advisor-cli with optional dependencies`);
  }
  const binary = path.join(dir, 'bin', process.platform === 'win32' ? 'advisor.exe' : 'advisor');
  if (!fs.existsSync(binary)) fail(`${name} has no binary at ${binary}; reinstall advisor-cli`);

  const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit' });
  const forwarded = process.platform === 'win32'
    ? ['SIGINT', 'SIGBREAK']
    : ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR2'];
  for (const signal of forwarded) {
    process.on(signal, () => {
      try {
        child.kill(signal);
      } catch (_) { /* the child is gone */ }
    });
  }
  child.on('error', (err) => fail(`cannot run ${binary}: ${err.message}`));
  child.on('exit', (code, signal) => {
    if (signal) {
      // end the same way, so that the caller sees the signal (128 + N in a shell)
      for (const s of forwarded) process.removeAllListeners(s);
      try {
        process.kill(process.pid, signal);
      } catch (_) { /* fall through */ }
      process.exit(128 + (os.constants.signals[signal] || 0));
    }
    process.exit(code === null ? 1 : code);
  });
}

main();
