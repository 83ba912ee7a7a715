#!/bin/sh
# Finishes a release folder that holds the binaries (skiff-OS-CPU) and the npm
# tarball: a SHA-256 sum file beside each, SHA256SUMS for all of them, and an
# install.sh that downloads from URL by default.
#
#   scripts/release_files.sh DIR URL
#
# URL is where the release's files will be, e.g.
# https://github.com/OWNER/REPO/releases/download/v1.2.3
set -eu
if [ $# -ne 2 ]; then
  echo "usage: scripts/release_files.sh DIR URL" >&2
  exit 2
fi
dir=$1
url=${2%/}
root=$(cd "$(dirname "$0")/.." && pwd)

if command -v sha256sum >/dev/null 2>&1; then
  sum() { sha256sum "$1"; }
else
  sum() { shasum -a 256 "$1"; }
fi

cd "$dir"
: >SHA256SUMS
count=0
for file in skiff-*; do
  case $file in *.sha256) continue ;; esac
  [ -f "$file" ] || continue
  sum "$file" >"$file.sha256"
  cat "$file.sha256" >>SHA256SUMS
  count=$((count + 1))
done
if [ "$count" -eq 0 ]; then
  echo "release_files.sh: no skiff-* files in $dir" >&2
  exit 1
fi

awk -v url="$url" '
  /^default_release_url=/ { print "default_release_url=\"" url "\""; found = 1; next }
  { print }
  END { if (!found) exit 1 }
' "$root/install.sh" >install.sh || {
  echo "release_files.sh: install.sh has no default_release_url line" >&2
  exit 1
}
chmod 755 install.sh
echo "release_files.sh: $count files summed in $dir/SHA256SUMS; install.sh downloads from $url"
