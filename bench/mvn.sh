# Sourced by bench/run.sh and bench/tables.sh (not run on its own): how the benchmark scripts call Maven.
#
# bench_mvn ARG...: `mvn -q -B -Pbench ARG...`, offline first. The benchmark programs' dependencies (Spark 4.2,
# Spark 4.0 with delta-spark and iceberg-spark-runtime, maven-dependency-plugin's own dependencies) are not needed
# by the rest of the build, so a fresh ~/.m2 often lacks them: when the offline build fails and Maven says it could
# not reach a repository "in offline mode" (a dependency, a plugin or a parent POM missing from ~/.m2), the same
# command is run once more online, announced on stderr. Any other failure (a compile error, a failing goal) is
# returned as it is, without a second build. Each build's output goes to stdout, as Maven's own does.
#
# MVN_OFFLINE, when set, replaces the offline-then-online choice and is passed to every build as it is:
# MVN_OFFLINE= (empty) builds online at once, MVN_OFFLINE=-o offline only (a missing artifact fails the run).
bench_mvn() {
  if [[ -n ${MVN_OFFLINE+set} ]]; then
    # shellcheck disable=SC2086 # MVN_OFFLINE is empty or flags, split on purpose
    mvn $MVN_OFFLINE -q -B -Pbench "$@"
    return
  fi
  local log rc
  log=$(mktemp)
  # tee keeps the output live; the log is only read to tell a missing artifact from any other failure. Maven's
  # status is taken from PIPESTATUS inside the condition (exempt from set -e), so it holds with or without pipefail.
  if mvn -o -q -B -Pbench "$@" 2>&1 | tee "$log"; rc=${PIPESTATUS[0]}; (( rc == 0 )); then
    rm -f "$log"
    return 0
  fi
  if ! bench_mvn_offline_miss "$log"; then
    rm -f "$log"
    return "$rc"
  fi
  rm -f "$log"
  echo "bench: the offline build (mvn -o $*) is missing artifacts in ~/.m2; retrying once online" \
       "(MVN_OFFLINE=-o to stay offline, MVN_OFFLINE= to build online from the start)" >&2
  mvn -q -B -Pbench "$@"
}

# bench_mvn_offline_miss LOG: true when Maven's output LOG says offline mode kept it from resolving an artifact.
# Maven 3's resolver says "Cannot access <repository> (<url>) in offline mode and the artifact <coordinates> has
# not been downloaded from it before", for dependencies ("Could not resolve dependencies"), plugins ("Plugin ... or
# one of its dependencies could not be resolved") and parent POMs alike.
bench_mvn_offline_miss() {
  grep -q 'in offline mode' "$1"
}
