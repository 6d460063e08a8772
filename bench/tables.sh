#!/usr/bin/env bash
# Delta and Iceberg tables, Sluice vs Spark 4.0.1 local[2] with the official connectors (delta-spark 4.0.0,
# iceberg-spark-runtime-4.0_2.13 1.10.0), one JVM after the other, never two at once (bench/run.sh tables).
#
#   bench/tables.sh [read] [write]   (default: both)
#
#   read:  a 100-commit table of 2 M rows (100 x 20,000 rows of id bigint, account string, amount double,
#          ts timestamp; one Parquet file per commit, written once by Sluice's sink under bench/target/tables) streamed
#          whole to noop, availableNow (Spark's Iceberg stream runs as one batch: iceberg-spark 1.10 does not take
#          availableNow). Whole run: from main's first line (engine or SparkSession creation included) to the end.
#   write: rate-micro-batch (WRITE_ROWS rows per batch, default 100,000, 2 partitions) into each sink, back to
#          back, until WRITE_BATCHES (default 10) batches are committed, then stopped; rows committed (counted in the
#          table afterwards: a batch in flight at the stop may be committed too) per second of the query.
#
# Prints one line per run and a table of ratios; the raw lines go to bench/target/tables-results-<time>.txt.
#
# Builds both programs first (bench/mvn.sh's bench_mvn): offline, and when that fails because an artifact is
# missing from ~/.m2 (on a fresh machine, spark40-bench's Spark 4.0, delta-spark and iceberg-spark-runtime), once
# more online, said so on stderr; any other build failure stops the run. MVN_OFFLINE overrides the choice:
# MVN_OFFLINE= builds online from the start, MVN_OFFLINE=-o offline only.
set -euo pipefail
cd "$(dirname "$0")/.."
WHAT=${*:-read write}
HEAP=${HEAP:--Xmx2g}
WRITE_ROWS=${WRITE_ROWS:-100000}
WRITE_BATCHES=${WRITE_BATCHES:-10}
# shellcheck source=bench/mvn.sh
source bench/mvn.sh   # bench_mvn: offline first, online once on a missing artifact
SL_CP_FILE=bench/sluice-table-bench/target/classpath.txt
SP_CP_FILE=bench/spark40-bench/target/classpath.txt
bench_mvn -pl bench/sluice-table-bench -am package -DskipTests
bench_mvn -pl bench/spark40-bench package -DskipTests
SLUICE=(java $HEAP -Dorg.slf4j.simpleLogger.defaultLogLevel=warn
        -cp "bench/sluice-table-bench/target/classes:$(cat $SL_CP_FILE)" io.sluice.bench.TableBench)
SPARK=(java $HEAP $(cat bench/spark-bench/jvm-opens.txt)
       -cp "bench/spark40-bench/target/sluice-spark40-bench.jar:$(cat $SP_CP_FILE)" io.sluice.bench.SparkTableBench)
DATA=bench/target/tables
OUT=bench/target/tables-results-$(date +%Y%m%d-%H%M%S).txt
mkdir -p "$DATA"
result() { grep '^engine=' | tail -1; }
val() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; }
for f in delta iceberg; do
  if [[ " $WHAT " == *" read "* && ! -d $DATA/$f ]]; then
    "${SLUICE[@]}" gen "$f" "$DATA/$f" 100 20000 >&2
  fi
done
declare -A R
for w in $WHAT; do
  for f in delta iceberg; do
    for e in sluice spark; do
      if [[ $e == sluice ]]; then cmd=("${SLUICE[@]}"); else cmd=("${SPARK[@]}"); fi
      if [[ $w == read ]]; then args=(read "$f" "$DATA/$f"); else args=(write "$f" "$WRITE_ROWS" "$WRITE_BATCHES"); fi
      line=$("${cmd[@]}" "${args[@]}" 2>>"$OUT.log" | result)
      echo "$line" | tee -a "$OUT"
      R[$e.$f$w]=$line
    done
  done
done
echo
echo "| workload | Sluice | Spark 4.0 + connector | Sluice / Spark |"
echo "|---|---|---|---|"
for w in $WHAT; do
  for f in delta iceberg; do
    s=${R[sluice.$f$w]}; p=${R[spark.$f$w]}
    if [[ $w == read ]]; then
      a=$(val "$s" wholeMs); b=$(val "$p" wholeMs)
      echo "| ${f}read, whole run ($(val "$s" rows) / $(val "$p" rows) rows) | ${a} ms | ${b} ms | $(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.1fx faster", b/a}') |"
    else
      a=$(val "$s" rowsPerSec); b=$(val "$p" rowsPerSec)
      echo "| ${f}write, rows committed/s | ${a} | ${b} | $(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.1fx", a/b}') |"
    fi
  done
done
