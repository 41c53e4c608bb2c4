#!/usr/bin/env bash
# One-time, idempotent set-up behind `npm start` and `npm test`: npm dependencies and a
# reachable Docker engine. The runtime image is built (or found up to date) by the harness
# itself on first use, because its tag is a content hash only the harness computes.
#
# Set EVOLVE_SKIP_SETUP=1 to skip every step (e.g. inside a managed environment).
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "setup: $*"; }

if [ "${EVOLVE_SKIP_SETUP:-0}" = "1" ]; then
  say "skipped (EVOLVE_SKIP_SETUP=1)"
  exit 0
fi

# --- npm dependencies -------------------------------------------------------------------
# Reinstall only when the lockfile changed since the last install.
lock_hash="$(sha256sum package-lock.json | cut -c1-16)"
stamp="node_modules/.evolve-lock-hash"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$lock_hash" ]; then
  say "npm dependencies: up to date"
else
  # `npm ci`: exactly the lockfile, as users and CI systems install. The lockfile carries
  # every platform's optional binaries (rollup's included), so it is in sync everywhere.
  say "npm dependencies: installing from package-lock.json (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
  echo "$lock_hash" >"$stamp"
fi

# --- Chromium for the report's browser test (tests only) ----------------------------------
# Debian's own build, driven by playwright-core: a browser download is never attempted.
if [ "${1:-}" = "--for-tests" ] && [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = "0" ] && [ -f /etc/debian_version ]; then
    say "chromium: installing Debian's chromium for the report's browser test"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    say "chromium: /usr/bin/chromium missing; the report's browser test will fail (install Debian's chromium)"
  fi
elif [ "${1:-}" = "--for-tests" ]; then
  say "chromium: present"
fi

# --- OpenSSH server for the ssh:// engine test (tests only) -------------------------------
# tests/fleet/ssh-engine.test.ts starts a throwaway sshd of its own in a network namespace;
# the package's own service is never started.
if [ "${1:-}" = "--for-tests" ] && [ ! -x /usr/sbin/sshd ]; then
  if [ "$(id -u)" = "0" ] && [ -f /etc/debian_version ]; then
    say "openssh-server: installing Debian's openssh-server for the ssh:// engine test"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssh-server >/dev/null
  else
    say "openssh-server: /usr/sbin/sshd missing; the ssh:// engine test will fail (install Debian's openssh-server)"
  fi
fi

# --- Docker engine ----------------------------------------------------------------------
engine_answers() { docker version --format '{{.Server.Version}}' >/dev/null 2>&1; }
where="${DOCKER_HOST:-unix:///var/run/docker.sock}"

if engine_answers; then
  say "docker engine: reachable at $where"
  exit 0
fi

if [ "$(id -u)" != "0" ] || [ ! -f /etc/debian_version ] || [ -n "${DOCKER_HOST:-}" ]; then
  say "docker engine: NOT reachable at $where"
  echo "  Start a Docker engine and try again, for example:" >&2
  echo "    sudo systemctl start docker        (a systemd host)" >&2
  echo "    sudo dockerd &                      (no init system)" >&2
  echo "  or point DOCKER_HOST at a running engine. 'npx evolve doctor' shows what it sees." >&2
  exit 1
fi

if ! command -v dockerd >/dev/null 2>&1; then
  say "docker engine: installing docker.io from Debian's packages"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/dev/null
fi

# gVisor is optional: registered as the extra runtime `runsc` when Debian has it.
if ! command -v runsc >/dev/null 2>&1; then
  say "gvisor: installing runsc from Debian's packages (optional)"
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq runsc >/dev/null 2>&1; then
    say "gvisor: runsc not installable here; continuing with runc only"
  fi
fi
if command -v runsc >/dev/null 2>&1 && ! grep -q '"runsc"' /etc/docker/daemon.json 2>/dev/null; then
  say "gvisor: registering runsc in /etc/docker/daemon.json"
  mkdir -p /etc/docker
  if [ -s /etc/docker/daemon.json ]; then cp /etc/docker/daemon.json /etc/docker/daemon.json.before-evolve; fi
  node -e '
    const fs = require("fs"); const file = "/etc/docker/daemon.json";
    let config = {};
    try { config = JSON.parse(fs.readFileSync(file, "utf8")); } catch {}
    config.runtimes = { ...(config.runtimes || {}), runsc: {
      path: require("child_process").execSync("command -v runsc", { shell: "/bin/bash" }).toString().trim(),
      runtimeArgs: ["--network=none", "--platform=ptrace"] } };
    fs.writeFileSync(file, JSON.stringify(config, null, 2) + "\n");'
fi

say "docker engine: starting dockerd in the background (log: /var/log/evolve-dockerd.log)"
nohup dockerd >/var/log/evolve-dockerd.log 2>&1 </dev/null &
for _ in $(seq 1 60); do
  if engine_answers; then
    say "docker engine: up ($(docker version --format '{{.Server.Version}}'))"
    exit 0
  fi
  sleep 1
done
say "docker engine: dockerd did not answer within 60 s; see /var/log/evolve-dockerd.log"
tail -n 20 /var/log/evolve-dockerd.log >&2 || true
exit 1
