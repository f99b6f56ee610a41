#!/usr/bin/env bash
# The README's promise, checked as a new user would meet it (`npm run test:fresh-machine`): on a throwaway
# clone of the committed repository, with an older Node first on PATH, an empty cache for the Node the
# project needs, and no PostgreSQL or Redis answering,
#   1. `npm install && npm start` installs, says in one line that it runs under the needed Node, and answers
#      (and so does `npx cve-records help`);
#   2. `npm test` passes, having started PostgreSQL and Redis of its own.
# Step 2 runs in a new network namespace where loopback has no services (`unshare --net`, as root); where
# that is not allowed, TEST_DATABASE_URL and TEST_REDIS_URL name a port nothing listens on instead.
# Slow (a full install and the whole suite, about twice `npm test`), so not part of `npm test` itself.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
needed="$(sed -n 's/.*"node": *">= *\([0-9]*\)".*/\1/p' "$repo/package.json" | head -1)"

# An older Node: OLDER_NODE, or the first `node` on PATH whose major is below the needed one.
older="${OLDER_NODE:-}"
if [ -z "$older" ]; then
  IFS=: read -ra dirs <<<"$PATH"
  for dir in "${dirs[@]}"; do
    if [ -x "$dir/node" ] && [ "$("$dir/node" -p 'process.versions.node.split(".")[0]')" -lt "$needed" ]; then
      older="$dir/node"
      break
    fi
  done
fi
if [ -z "$older" ]; then
  echo "fresh-machine: no Node older than $needed on PATH; name one with OLDER_NODE=/path/to/node" >&2
  exit 2
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/public-cve-records-fresh-XXXXXX")"
server=""
cleanup() {
  [ -n "$server" ] && kill -TERM -- "-$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

git clone --quiet "$repo" "$work/public-cve-records"
# The shared sample data sits beside the repository, as on every machine of the project.
[ -e "$repo/../shared" ] && ln -s "$(cd "$repo/../shared" && pwd)" "$work/shared"
cd "$work/public-cve-records"
export PATH="$(dirname "$older"):$PATH" XDG_CACHE_HOME="$work/cache"
echo "fresh-machine: $(git log -1 --format='%h %s' | cut -c1-80) with node $(node --version) first on PATH, npm $(npm --version)"

echo "fresh-machine: npm install && npm start"
npm install --no-audit --no-fund
npx cve-records help >"$work/npx.log" 2>&1 || { echo "fresh-machine: npx cve-records help failed" >&2; cat "$work/npx.log" >&2; exit 1; }
grep -q "older than the $needed this project needs" "$work/npx.log" && grep -q "Usage: cve-records" "$work/npx.log" ||
  { echo "fresh-machine: npx cve-records did not run under Node $needed" >&2; cat "$work/npx.log" >&2; exit 1; }
echo "fresh-machine: npx cve-records help ran under Node $needed"
port="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
setsid npm start -- --port "$port" >"$work/start.log" 2>&1 &
server=$!
for _ in $(seq 1 180); do
  curl -fsS "http://127.0.0.1:$port/api/v1/health" >"$work/health.json" 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || break
  sleep 1
done
grep -v '^{' "$work/start.log" || true
grep -q '"status":"ok"' "$work/health.json" 2>/dev/null || { echo "fresh-machine: npm start did not answer" >&2; cat "$work/start.log" >&2; exit 1; }
grep -q "older than the $needed this project needs" "$work/start.log" || { echo "fresh-machine: npm start did not say it runs under Node $needed" >&2; exit 1; }
echo "fresh-machine: npm start answered GET /api/v1/health with $(cat "$work/health.json")"
kill -TERM -- "-$server"
wait "$server" || true
server=""

echo "fresh-machine: npm test, with no PostgreSQL or Redis answering"
set +e
if unshare --net true 2>/dev/null; then
  unshare --net bash -c 'ip link set lo up && npm test' 2>&1 | tee "$work/test.log"
  status=${PIPESTATUS[0]}
else
  closed="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
  TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$closed/test" TEST_REDIS_URL="redis://127.0.0.1:$closed" npm test 2>&1 | tee "$work/test.log"
  status=${PIPESTATUS[0]}
fi
set -e
for service in PostgreSQL Redis; do
  grep -q "$service is not answering" "$work/test.log" || { echo "fresh-machine: npm test did not start its own $service" >&2; status=1; }
done
if [ "$status" -eq 0 ]; then echo "fresh-machine: passed"; else echo "fresh-machine: failed" >&2; fi
exit "$status"
