#!/bin/sh
# Installs the skiff binary for this OS and CPU from a Skiff release, after
# checking its SHA-256 against the release's sum file.
#
#   curl -fsSL <release>/install.sh | sh
#
# Environment:
#   SKIFF_RELEASE_URL  where the release's files are (default: the release this
#                      script came from; the release workflow fills it in)
#   SKIFF_INSTALL_DIR  where skiff goes (default: ~/.local/bin)
#
# Exit codes: 0 installed, 2 no binary for this OS and CPU, 3 a download
# failed, 4 the SHA-256 did not match (nothing is installed), 5 the binary
# could not be installed or run, 6 a tool this script needs is missing.
set -eu

# The release workflow replaces this line with its own download URL.
default_release_url=""

fail() {
  code=$1
  shift
  echo "install.sh: $*" >&2
  exit "$code"
}

os=$(uname -s)
cpu=$(uname -m)
case "$os" in
  Linux) os_name=linux ;;
  Darwin) os_name=macos ;;
  *) os_name= ;;
esac
case "$cpu" in
  x86_64 | amd64) cpu_name=x64 ;;
  aarch64 | arm64) cpu_name=arm64 ;;
  *) cpu_name= ;;
esac
if [ -z "$os_name" ] || [ -z "$cpu_name" ]; then
  fail 2 "no Skiff binary for $os $cpu; there are binaries for Linux and macOS on x64 and arm64"
fi
name="skiff-$os_name-$cpu_name"

release_url=${SKIFF_RELEASE_URL:-$default_release_url}
if [ -z "$release_url" ]; then
  fail 3 "set SKIFF_RELEASE_URL to the release's download URL (…/releases/download/vX.Y.Z), or use the install.sh attached to a release"
fi
release_url=${release_url%/}
install_dir=${SKIFF_INSTALL_DIR:-$HOME/.local/bin}

if command -v curl >/dev/null 2>&1; then
  download() { curl -fsSL --retry 2 -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  download() { wget -q -O "$2" "$1"; }
else
  fail 6 "needs curl or wget to download"
fi
if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1" | cut -d ' ' -f 1; }
elif command -v shasum >/dev/null 2>&1; then
  sha256() { shasum -a 256 "$1" | cut -d ' ' -f 1; }
else
  fail 6 "needs sha256sum or shasum to check the download"
fi

work=$(mktemp -d 2>/dev/null || mktemp -d -t skiff-install)
trap 'rm -rf "$work"' EXIT INT TERM

download "$release_url/$name" "$work/$name" 2>/dev/null ||
  fail 3 "could not download $release_url/$name"
download "$release_url/$name.sha256" "$work/$name.sha256" 2>/dev/null ||
  fail 3 "could not download $release_url/$name.sha256"

expected=$(cut -d ' ' -f 1 <"$work/$name.sha256" | head -n 1 | tr 'A-F' 'a-f')
actual=$(sha256 "$work/$name")
if [ "$expected" != "$actual" ]; then
  fail 4 "SHA-256 mismatch for $name: expected ${expected:-nothing}, got $actual; nothing was installed"
fi

# Copy beside the target, then rename: a running skiff keeps its old file.
chmod 755 "$work/$name"
mkdir -p "$install_dir" || fail 5 "cannot make $install_dir"
cp "$work/$name" "$install_dir/.skiff.new.$$" 2>/dev/null || fail 5 "cannot write to $install_dir"
mv -f "$install_dir/.skiff.new.$$" "$install_dir/skiff" || fail 5 "cannot write $install_dir/skiff"

if ! version=$("$install_dir/skiff" --version 2>/dev/null); then
  rm -f "$install_dir/skiff"
  fail 5 "$install_dir/skiff does not run on this machine; removed it"
fi
echo "Installed $version to $install_dir/skiff"
case ":$PATH:" in
  *":$install_dir:"*) ;;
  *) echo "Add $install_dir to your PATH to run skiff by name." ;;
esac
