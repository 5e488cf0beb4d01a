#!/bin/sh
# Rebuild bot/web/static/vendor/discord-sdk.js (make vendor): Discord's Embedded App SDK, as
# pinned in package-lock.json, bundled by esbuild (pinned too) into one self-contained file with
# the licences of what it holds at its head. The result is committed, so running the bot never
# needs node; run this only to change the SDK's version (edit package.json, `npm install`, then
# this). `npm ci` installs exactly the lock, so the same lock gives the same bytes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../../bot/web/static/vendor/discord-sdk.js"
cd "$here"
npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
version=$(node -p 'require("@discord/embedded-app-sdk/package.json").version')
mkdir -p "$(dirname "$out")"
{
  echo "/*! @discord/embedded-app-sdk $version (MIT, Copyright (c) 2024 Discord Inc.),"
  echo " * bundled with its dependencies by esbuild for Banmen's Activity page (scripts/vendor):"
  node -e '
    const lock = require("./package-lock.json").packages;
    for (const [path, p] of Object.entries(lock)) {
      if (!path || p.dev) continue;
      console.log(" * " + path.replace(/^.*node_modules\//, "") + " " + p.version + " (" + p.license + ")");
    }'
  echo " * The licence texts are in scripts/vendor/LICENSES.txt. */"
  ./node_modules/.bin/esbuild entry.mjs --bundle --format=iife --global-name=DiscordEmbeddedAppSdk \
    --platform=browser --target=es2020 --minify --legal-comments=none --log-level=warning
} > "$out.tmp"
mv "$out.tmp" "$out"
node -e '
  const lock = require("./package-lock.json").packages;
  const fs = require("fs");
  const out = [];
  for (const [path, p] of Object.entries(lock)) {
    if (!path || p.dev) continue;
    const dir = path;
    const file = fs.readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
    out.push("== " + path.replace(/^.*node_modules\//, "") + " " + p.version + " ==\n" +
      (file ? fs.readFileSync(dir + "/" + file, "utf8").trim() : "(" + p.license + ")") + "\n");
  }
  fs.writeFileSync("LICENSES.txt", out.join("\n"));'
echo "wrote $out ($(wc -c < "$out") bytes)"
