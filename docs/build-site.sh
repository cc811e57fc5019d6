#!/usr/bin/env bash
# Builds the documentation site with Antora into docs/target/site (open docs/target/site/index.html), and fails on
# any warning: a broken xref, a missing include, attachment or image. Needs Node.js with npm (Antora is installed into
# docs/target/antora on first use).
set -euo pipefail
cd "$(dirname "$0")"
tools=target/antora
if [[ ! -x $tools/node_modules/.bin/antora ]]; then
  npm install --silent --no-audit --no-fund --prefix "$tools" antora@3.1.15 > /dev/null
fi
"$tools/node_modules/.bin/antora" --stacktrace antora-playbook.yml
echo "site: docs/target/site/index.html"
