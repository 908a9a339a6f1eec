#!/usr/bin/env bash
# `apt-get update` that survives a Debian mirror in the middle of a sync (it answers with index
# files of the wrong size for a while): up to 5 attempts 20 s apart, then success anyway with
# whatever indexes apt has, so a package that is really missing fails later, by name, in
# apt-get install / apt-get download. Run as root (callers prefix sudo when needed).
#
#   scripts/apt-update.sh [PACKAGE[:ARCH]...]
#
# With package names, a failed attempt after which apt has a candidate version of every one of
# them ends the retries: the index that failed (often bookworm-security's, for a foreign
# architecture) is not one these packages need. Name packages only where apt had no candidate
# for them before this update, so a candidate can only come from an index it just fetched.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/apt-candidate.sh"
has_candidates() {
  [[ $# -gt 0 ]] || return 1
  local pkg
  for pkg in "$@"; do
    [[ -n "$(apt_candidate "$pkg")" ]] || return 1
  done
}
for attempt in 1 2 3 4 5; do
  if env DEBIAN_FRONTEND=noninteractive apt-get update >/dev/null; then
    exit 0
  fi
  if has_candidates "$@"; then
    echo "apt-update: apt-get update failed (attempt $attempt), but every package needed ($*) has a candidate; going on" >&2
    exit 0
  fi
  echo "apt-update: apt-get update failed (attempt $attempt of 5; a mirror may be syncing)" >&2
  [[ $attempt -lt 5 ]] && sleep 20
done
echo "apt-update: apt-get update kept failing; going on with the indexes apt has" >&2
exit 0
