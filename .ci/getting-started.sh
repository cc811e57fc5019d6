#!/usr/bin/env bash
# Follows "Your first 429" (docs/modules/ROOT/pages/getting-started.adoc) literally, as a newcomer would: the commands
# and files are taken from the page itself, not copied here, and run in an empty folder beside this clone, up to the
# sixth call answered 429 by the application in dev mode; then runs the testing page's test clock example in it, and
# secures its administration endpoints as the multi-tenancy page's "Securing the endpoints" shows, up to 401 without
# credentials and 200 with them. Run by .ci/run; needs what the page needs (JDK 17,
# redis-server or the embedded binary, curl) and port 8080 free.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
page=$repo/docs/modules/ROOT/pages/getting-started.adoc
work=$(mktemp -d)
dev_pid=
cleanup() {
  if [[ -n $dev_pid ]]; then kill -- "-$dev_pid" 2>/dev/null || kill "$dev_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# block <step number> <language> <index>: the index-th (from 1) block of that language in the page's step
block() {
  python3 - "$page" "$1" "$2" "$3" <<'PY'
import re, sys
page, step, language, index = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3], int(sys.argv[4])
section = re.split(r'^== ', page, flags=re.M)
text = next(s for s in section if s.startswith(step + '.'))
blocks = re.findall(r'^\[source,' + language + r'[^\]]*\]\n----\n(.*?)\n----$', text, flags=re.M | re.S)
print(blocks[index - 1])
PY
}

# add_dependency <pom> <dependency>: the page's dependency among the <dependencies> of the project, not those of
# <dependencyManagement>
add_dependency() {
  python3 - "$1" "$2" <<'PY'
import re, sys
pom, dependency = open(sys.argv[1]).read(), sys.argv[2]
managed = re.search(r'<dependencyManagement>.*?</dependencyManagement>', pom, re.S)
start = pom.index('<dependencies>', managed.end() if managed else 0) + len('<dependencies>')
open(sys.argv[1], 'w').write(pom[:start] + '\n' + dependency + pom[start:])
PY
}

# the page's folder layout: the clone, and an empty folder beside it
ln -s "$repo" "$work/quarkus-rate-limit"
mkdir "$work/empty"

echo "== 1. Install the extension"
(cd "$repo" && bash -euo pipefail -c "$(block 1 bash 1) -q -B")
echo "== 2. Create an application"
(cd "$work/empty" && bash -euo pipefail -c "$(block 2 bash 1 | sed 's/:create /:create -B -q /')")
app=$(find "$work/empty" -mindepth 1 -maxdepth 1 -type d)
echo "== 3. Add the extension"
# the page's other way, on a copy of the application: the Maven plugin adds the dependency the page shows
cp -r "$app" "$work/added"
(cd "$work/added" && bash -euo pipefail -c "$(block 3 bash 1) -B -q")
python3 - "$work/added/pom.xml" <<'PY'
import re, sys
pom = re.sub(r'<dependencyManagement>.*?</dependencyManagement>', '', open(sys.argv[1]).read(), flags=re.S)
found = re.search(r'<groupId>io\.quarkiverse\.ratelimit</groupId>\s*<artifactId>quarkus-rate-limit</artifactId>', pom)
sys.exit(0 if found else 'quarkus:add-extension did not add the extension among the dependencies')
PY
rm -rf "$work/added"
add_dependency "$app/pom.xml" "$(block 3 xml 1)"
echo "== 4. Limit the endpoint"
target=$(python3 - "$page" <<'PY'
import re, sys
section = next(s for s in re.split(r'^== ', open(sys.argv[1]).read(), flags=re.M) if s.startswith('4.'))
print(re.search(r'Replace `([^`]+)`', section).group(1))
PY
)
block 4 java 1 > "$app/$target"
# start_dev <command>: dev mode in the application's folder, in a session of its own, so that stop_dev (and the
# cleanup) stops it and what it started (its redis-server) together; returns once it listens
start_dev() {
  (cd "$app" && exec setsid bash -c "$1 -B" < /dev/null > "$work/dev.log" 2>&1) &
  dev_pid=$!
  for _ in $(seq 1 600); do
    grep -q "Listening on" "$work/dev.log" 2>/dev/null && break
    sleep 0.5
  done
  grep -q "Listening on" "$work/dev.log" || { echo "dev mode did not start:"; tail -40 "$work/dev.log"; exit 1; }
}
stop_dev() {
  kill -- "-$dev_pid" 2>/dev/null || true
  while kill -0 "$dev_pid" 2>/dev/null; do sleep 0.2; done
  dev_pid=
  while curl -s -o /dev/null localhost:8080 2>/dev/null; do sleep 0.2; done
}

echo "== 5. Run it and call it six times"
start_dev "$(block 5 bash 1)"
calls=$(block 5 bash 2)
expected=$(grep -o '^# .*' <<< "$calls" | head -1 | sed 's/^# //')
answered=$(bash -c "$(grep -v '^#' <<< "$calls" | head -1)")
echo "six calls: $answered (the page says: $expected)"
[[ $(echo $answered) == "$expected" ]] || { tail -40 "$work/dev.log"; exit 1; }
refusal=$(bash -c "$(grep -v '^#' <<< "$calls" | sed -n 2p)" 2>/dev/null)
for header in "429 Too Many Requests" "RateLimit-Policy" "RateLimit:" "Retry-After" "application/problem+json"; do
  grep -qi "$header" <<< "$refusal" || { echo "the refusal lacks '$header' the page shows:"; echo "$refusal"; exit 1; }
done
echo "the getting-started page, followed literally: the sixth call refused as it shows"

# "Time: a test clock" (the testing page) pasted into the same application, literally: its two classes where their
# packages put them, run by the application's own build, with a tenant header configured as the page says it may be
echo "== The testing page's test clock"
stop_dev
python3 - "$repo/docs/modules/ROOT/pages/testing.adoc" "$app" <<'PY'
import re, sys
page, app = open(sys.argv[1]).read(), sys.argv[2]
text = page.split('== Time: a test clock', 1)[1].split('\n== ', 1)[0]
for block in re.findall(r'^\[source,java[^\]]*\]\n----\n(.*?)\n----$', text, flags=re.M | re.S):
    package = re.search(r'^package ([\w.]+);', block, re.M).group(1)
    name = re.search(r'^(?:public )?class (\w+)', block, re.M).group(1)
    kind = 'test' if name.endswith('Test') else 'main'
    path = app + '/src/' + kind + '/java/' + package.replace('.', '/') + '/' + name + '.java'
    open(path, 'w').write(block + '\n')
PY
printf '\nquarkus.rate-limit.tenant.header=X-Tenant-Id\n' >> "$app/src/main/resources/application.properties"
(cd "$app" && ./mvnw test -B -q -Dtest=ExportResourceTest -Dsurefire.failIfNoSpecifiedTests=false) \
    || { echo "the testing page's test clock example failed in a new application"; exit 1; }
echo "the testing page's test clock example, pasted into a new application: it compiles and passes"

# "Securing the endpoints" (the multi-tenancy page) on the same application, literally: the extension it names, its
# properties, the start command and the two calls it shows, each with the status its comment says
echo "== Securing the administration endpoints"
stop_dev
security=$repo/docs/modules/ROOT/pages/multi-tenancy.adoc
# secured <language> <index>: the index-th block of that language in the section
secured() {
  python3 - "$security" "$1" "$2" <<'PY'
import re, sys
page, language, index = open(sys.argv[1]).read(), sys.argv[2], int(sys.argv[3])
text = page.split('==== Securing the endpoints', 1)[1].split('\n== ', 1)[0]
if language == 'start':
    print(re.search(r'started as `([^`]+)`', text).group(1))
else:
    blocks = re.findall(r'^\[source,' + language + r'[^\]]*\]\n----\n(.*?)\n----$', text, flags=re.M | re.S)
    print(blocks[index - 1])
PY
}
add_dependency "$app/pom.xml" "$(secured xml 1)"
printf '\n%s\n' "$(secured properties 1)" >> "$app/src/main/resources/application.properties"
start_dev "$(secured start 1)"
while read -r call; do
  expected=$(sed -n 's/.*# *\([0-9][0-9][0-9]\)$/\1/p' <<< "$call")
  answered=$(bash -c "${call%%#*}")
  echo "${call%%#*}-> $answered (the page says: $expected)"
  [[ $answered == "$expected" ]] || { tail -40 "$work/dev.log"; exit 1; }
done <<< "$(secured bash 1)"
echo "the administration endpoints, secured as the multi-tenancy page shows: 401 without credentials, 200 with them"
