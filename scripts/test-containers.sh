#!/usr/bin/env bash
# The container suites, a step of scripts/test.sh after the local-process suites: sets up Docker and the
# images (scripts/kind-setup.sh), then runs the vitest projects `containers` (testcontainers) and `kind`.
# Where Docker cannot start this fails and says why; WARMSTART_SKIP_CONTAINER_TESTS=1 skips it on purpose.
# Whatever happens (success, failure, SIGINT), no cluster, container or network of the suites is left behind.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${WARMSTART_SKIP_CONTAINER_TESTS:-}" = "1" ]; then
  echo "container suites SKIPPED on purpose (WARMSTART_SKIP_CONTAINER_TESTS=1): kind and testcontainers did not run" >&2
  exit 0
fi
# shellcheck source=scripts/bootstrap.sh
source scripts/bootstrap.sh
export TESTCONTAINERS_RYUK_DISABLED=true
sweep() {
  local kind_bin="${WARMSTART_KIND_BIN:-}"
  if [ -n "$kind_bin" ] && [ -x "$kind_bin" ]; then
    for c in $("$kind_bin" get clusters 2>/dev/null | grep '^warmstart-' || true); do
      echo "[test-containers] deleting kind cluster $c left behind" >&2
      "$kind_bin" delete cluster --name "$c" >/dev/null 2>&1 || true
    done
  fi
  if docker info >/dev/null 2>&1; then
    ids=$(docker ps -aq --filter label=warmstart.e2e)
    [ -z "$ids" ] || { echo "[test-containers] removing containers left behind: $ids" >&2; docker rm -f -v $ids >/dev/null 2>&1 || true; }
    nets=$(docker network ls -q --filter label=warmstart.e2e)
    [ -z "$nets" ] || docker network rm $nets >/dev/null 2>&1 || true
  fi
}
trap sweep EXIT
trap 'sweep; trap - INT; kill -INT $$' INT
trap 'sweep; trap - TERM; kill -TERM $$' TERM

if ! env_lines=$(bash scripts/kind-setup.sh); then
  echo "container suites FAILED in set-up (above: which step and why). Set WARMSTART_SKIP_CONTAINER_TESTS=1 to skip them on purpose." >&2
  exit 1
fi
while IFS= read -r line; do export "${line?}"; done <<< "$env_lines"
sweep
mkdir -p e2e/artifacts
set +e
pnpm vitest run --project containers --project kind --no-file-parallelism --reporter=default --reporter=json \
  --outputFile.json=e2e/artifacts/vitest-containers.json
rc=$?
set -e
# The closing line counts every suite of the run: the local-process suites (vitest.json, when test.sh ran
# them first) and these.
node -e '
  const fs = require("fs");
  const files = ["e2e/artifacts/vitest.json", "e2e/artifacts/vitest-containers.json"].filter((f) => fs.existsSync(f));
  const t = { p: 0, f: 0, s: 0, n: 0, c: 0, h: 0 };
  for (const f of files) {
    const r = JSON.parse(fs.readFileSync(f, "utf8"));
    t.p += r.numPassedTests; t.f += r.numFailedTests; t.s += r.numPendingTests + r.numTodoTests;
    t.h += r.testResults.filter((f) => f.status === "failed" && !f.assertionResults.some((x) => x.status === "failed")).length;
    if (f.endsWith("containers.json")) t.c = r.numTotalTests;
  }
  if (t.c === 0) { console.error("the container suites ran no test"); process.exit(1); }
  console.log(`\ntotal: ${t.p} passed, ${t.f} failed, ${t.s} skipped${t.h > 0 ? `, ${t.h} file(s) failed in a hook` : ""}`);
' || rc=1
node scripts/failed-tests.mjs e2e/artifacts/vitest.json e2e/artifacts/vitest-containers.json
[ $rc -eq 0 ] || { echo "CONTAINER SUITES FAILED (exit $rc)" >&2; exit $rc; }
