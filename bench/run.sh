#!/usr/bin/env bash
# Sluice vs Spark 4.2 (local[2]) on the same machine, one run after the other, never two at once.
#
#   bench/run.sh [overhead|throughput|startup|all]     (default: all; ~5 minutes)
#
# Builds both benchmark programs if needed (offline; MVN_OFFLINE= to allow downloads), runs each workload on
# Sluice then on Spark, prints a side-by-side table with the ratio, and keeps the raw lines in
# bench/target/results-<time>.txt. Both JVMs get the same heap flags ($HEAP, default -Xmx2g, default GC); Spark also
# gets the --add-opens flags of bench/spark-bench/jvm-opens.txt. `java` on PATH. Checkpoints go to
# bench/target/checkpoints (a real folder on disk: Sluice's fsynced log writes are included).
set -euo pipefail

cd "$(dirname "$0")/.."
WHAT=${1:-all}
case "$WHAT" in overhead|throughput|startup|all) ;; *) echo "usage: $0 [overhead|throughput|startup|all]" >&2; exit 2;; esac

HEAP=${HEAP:--Xmx2g}
MVN="mvn ${MVN_OFFLINE--o} -q -B -Pbench"
SLUICE_JAR=bench/sluice-bench/target/sluice-bench.jar
SPARK_JAR=bench/spark-bench/target/sluice-spark-bench.jar
SPARK_CP=bench/spark-bench/target/classpath.txt
CHK=bench/target/checkpoints
mkdir -p "$CHK"
RESULTS=bench/target/results-$(date +%Y%m%d-%H%M%S).txt

# ---------------------------------------------------------------- build if needed

stale() { # stale JAR PATH...: true when JAR is missing or any file under PATH is newer
  local jar=$1; shift
  [[ ! -f $jar ]] && return 0
  [[ -n $(find "$@" -type f -newer "$jar" -print -quit 2>/dev/null) ]]
}
if stale "$SLUICE_JAR" pom.xml sluice-api/pom.xml sluice-api/src/main sluice-core/pom.xml sluice-core/src/main bench/sluice-bench/pom.xml bench/sluice-bench/src; then
  echo "building bench/sluice-bench ..." >&2
  $MVN -pl bench/sluice-bench -am package -DskipTests
fi
if stale "$SPARK_JAR" bench/spark-bench/pom.xml bench/spark-bench/src || [[ ! -f $SPARK_CP ]]; then
  echo "building bench/spark-bench ..." >&2
  $MVN -pl bench/spark-bench package -DskipTests
fi

SLUICE=(java $HEAP -Dbench.dir="$CHK" -jar "$SLUICE_JAR")
SPARK=(java $HEAP $(cat bench/spark-bench/jvm-opens.txt) -Dbench.dir="$CHK" -cp "$SPARK_JAR:$(cat "$SPARK_CP")" io.sluice.bench.SparkBench)

# ---------------------------------------------------------------- run

{
  echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -srm), nproc=$(nproc), $(free -m | awk '/^Mem:/{print $2 " MB RAM"}')"
  echo "# $(java -version 2>&1 | head -1), heap flags: $HEAP"
} | tee "$RESULTS"

run() { # run ENGINE WORKLOAD: one JVM, one result line
  local engine=$1 workload=$2 line
  echo "running $engine $workload ..." >&2
  if [[ $engine == sluice ]]; then line=$("${SLUICE[@]}" "$workload" | grep "^sluice $workload ")
  else line=$("${SPARK[@]}" "$workload" | grep "^spark $workload "); fi
  echo "$line" | tee -a "$RESULTS" >&2
  echo "$line"
}
val() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; }   # val LINE KEY
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "n/a"; else printf "%.1fx", a / b }'; }
num() { awk -v a="$1" 'BEGIN { if (a >= 1e6) printf "%.2f M", a / 1e6; else printf "%g", a }'; }

declare -A R
for w in overhead throughput startup; do
  [[ $WHAT == all || $WHAT == "$w" ]] || continue
  R[sluice_$w]=$(run sluice $w)
  R[spark_$w]=$(run spark $w)
done

# ---------------------------------------------------------------- table

row() { printf '| %-48s | %14s | %14s | %-24s |\n' "$@"; }
{
  echo
  row "metric" "Sluice" "Spark 4.2" "ratio"
  row "---" "---" "---" "---"
  if [[ -n ${R[sluice_overhead]:-} ]]; then
    a=${R[sluice_overhead]} b=${R[spark_overhead]}
    row "overhead: batches measured (after 3 s)" "$(val "$a" batches)" "$(val "$b" batches)" ""
    row "overhead: median batchDuration, ms" "$(val "$a" median_ms)" "$(val "$b" median_ms)" "$(ratio "$(val "$b" median_ms)" "$(val "$a" median_ms)") (Spark/Sluice)"
    row "overhead: p90 batchDuration, ms" "$(val "$a" p90_ms)" "$(val "$b" p90_ms)" "$(ratio "$(val "$b" p90_ms)" "$(val "$a" p90_ms)") (Spark/Sluice)"
    row "overhead: wall-clock ms per batch" "$(val "$a" wall_ms_per_batch)" "$(val "$b" wall_ms_per_batch)" "$(ratio "$(val "$b" wall_ms_per_batch)" "$(val "$a" wall_ms_per_batch)") (Spark/Sluice)"
    row "overhead: rows/s (1,000 rows/batch, wall)" "$(num "$(val "$a" rows_per_s)")" "$(num "$(val "$b" rows_per_s)")" "$(ratio "$(val "$a" rows_per_s)" "$(val "$b" rows_per_s)") (Sluice/Spark)"
  fi
  if [[ -n ${R[sluice_throughput]:-} ]]; then
    a=${R[sluice_throughput]} b=${R[spark_throughput]}
    row "throughput: rows/s (sum rows / sum duration)" "$(num "$(val "$a" rows_per_s)")" "$(num "$(val "$b" rows_per_s)")" "$(ratio "$(val "$a" rows_per_s)" "$(val "$b" rows_per_s)") (Sluice/Spark)"
    row "throughput: wall-clock rows/s" "$(num "$(val "$a" wall_rows_per_s)")" "$(num "$(val "$b" wall_rows_per_s)")" "$(ratio "$(val "$a" wall_rows_per_s)" "$(val "$b" wall_rows_per_s)") (Sluice/Spark)"
    row "throughput: median ms per 5 M-row batch" "$(val "$a" median_ms)" "$(val "$b" median_ms)" ""
  fi
  if [[ -n ${R[sluice_startup]:-} ]]; then
    a=${R[sluice_startup]} b=${R[spark_startup]}
    row "startup: JVM start to first committed batch, ms" "$(val "$a" first_batch_ms)" "$(val "$b" first_batch_ms)" "$(ratio "$(val "$b" first_batch_ms)" "$(val "$a" first_batch_ms)") (Spark/Sluice)"
    row "startup: heap used after the batch, MB" "$(val "$a" heap_used_mb)" "$(val "$b" heap_used_mb)" ""
    row "startup: peak heap (sum of pool peaks), MB" "$(val "$a" heap_peak_mb)" "$(val "$b" heap_peak_mb)" ""
    row "startup: peak RSS, MB" "$(val "$a" rss_peak_mb)" "$(val "$b" rss_peak_mb)" ""
  fi
} | tee -a "$RESULTS"
echo "raw results: $RESULTS" >&2
