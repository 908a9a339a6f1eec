# Sourced by the scripts that ask apt for versions (apt-update.sh, fetch-cross-headers.sh,
# make-sysroot.sh, tools/bench/node_sysroot.sh), so the probe is written once.
#   apt_candidate PACKAGE[:ARCH]   prints the version apt would install; nothing where apt knows
#                                  none (no package lists for it yet, or "Candidate: (none)").
apt_candidate() {
  local version
  version=$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p')
  if [[ "$version" == "(none)" ]]; then version=""; fi
  printf '%s' "$version"   # and status 0: callers assign it under set -e
}
