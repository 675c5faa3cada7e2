#!/usr/bin/env bash
# The test command of the README: installs what is missing, builds, lints, then runs every unit and
# integration test against real local kube-apiservers, and checks the packed packages; then the container
# suites (kind clusters, the manager image, testcontainers: scripts/test-containers.sh).
#   bash scripts/test.sh            everything (what CI runs)
#   bash scripts/test.sh --unit     unit tests only: no cluster, seconds
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-all}"
t0=$(date +%s)
step() { printf '\n=== %s (+%ss)\n' "$*" "$(( $(date +%s) - t0 ))"; }

step "system packages"
bash scripts/system-deps.sh
# shellcheck source=scripts/bootstrap.sh
source scripts/bootstrap.sh

step "pnpm install"
pnpm install --frozen-lockfile

step "lint, typecheck, build"
pnpm biome check .
bash scripts/check-changesets.sh
pnpm turbo run typecheck build --output-logs=errors-only

if [ "$mode" = "--unit" ]; then
  step "unit tests"
  pnpm vitest run --project unit
  exit 0
fi

step "Kubernetes binaries (built once from the Go module proxy, then cached)"
bash e2e/scripts/build-k8s-binaries.sh >/dev/null

step "unit + integration tests"
mkdir -p e2e/artifacts
# Every manager an integration test starts writes its log here, so a failure can be read after the run.
if [ -z "${WARMSTART_MANAGER_LOG_DIR:-}" ]; then
  export WARMSTART_MANAGER_LOG_DIR="$PWD/e2e/artifacts/manager-logs"
  rm -rf "$WARMSTART_MANAGER_LOG_DIR"
fi
set +e
pnpm vitest run --project unit --project integration --reporter=default --reporter=json --outputFile.json=e2e/artifacts/vitest.json
rc=$?
set -e
node -e '
  const r = JSON.parse(require("fs").readFileSync("e2e/artifacts/vitest.json", "utf8"));
  const skipped = r.numPendingTests + r.numTodoTests;
  const hooks = r.testResults.filter((f) => f.status === "failed" && !f.assertionResults.some((t) => t.status === "failed")).length;
  console.log(`\n${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped${hooks > 0 ? `, ${hooks} file(s) failed in a hook` : ""}`);
  if (r.numTotalTests === 0) { console.error("no test ran"); process.exit(1); }
' || rc=1
node scripts/failed-tests.mjs e2e/artifacts/vitest.json
# A failed local suite does not hide the later ones: every step runs, and the run fails at the end.
[ $rc -eq 0 ] || echo "::error:: unit/integration tests FAILED (exit $rc); the remaining steps still run" >&2

step "packed packages install and import outside the workspace"
bash scripts/pack-check.sh || { echo "::error:: pack-check FAILED" >&2; rc=1; }

step "container suites: Docker, kind node and manager images, kind clusters, testcontainers"
bash scripts/test-containers.sh || { echo "::error:: container suites FAILED" >&2; rc=1; }

[ $rc -eq 0 ] || { echo "TESTS FAILED (exit $rc)" >&2; exit $rc; }
step "done"
