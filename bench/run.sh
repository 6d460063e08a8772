#!/usr/bin/env bash
# Sluice vs Spark 4.2 (local[2]) on the same machine, one run after the other, never two at once.
#
#   bench/run.sh [WORKLOAD|engine|files|parquet|python|all]...   (default: all; ~12 minutes)
#   bench/run.sh tables [read] [write]: Delta and Iceberg tables, Sluice vs Spark 4.0.1 (bench/tables.sh)
#
#   engine: overhead throughput startup (rate-micro-batch to noop)
#   files:  jsonread csvread parquetread jsonwrite parquetwrite plan100k plan200k (both engines) and seenfiles
#           (Sluice only: see below)
#   parquet: parquetread parquetwrite (both engines): the 2 M-row events data as Parquet, availableNow to noop; and
#           rate-micro-batch into the parquet sink (snappy), rows written/s
#   python: Sluice only: a Python stream reader (bench/sluice-bench's throughput_source.py) yielding
#           (seq, account, amount) tuples, 8 partitions, 2 reading workers, availableNow to noop, against the same
#           source written with the Java API, alternating in one JVM (a warm-up of each, then PYTHON_ROUNDS, default 3,
#           of each; PYTHON_ROWS rows, default 4,000,000): the median round of each and the ratio; then one
#           partition read by the worker's own loop with each stage timed (the user's generator, encoding, the
#           pipe, the JVM's decoding)
#   manifest: Sluice only, not part of `all` (~20 minutes): 20,000 one-row batches back to back into the json sink,
#           twice: cleanupDelay=10s, then cleanupDelay=10s retention=30s; _spark_metadata's files and bytes and the
#           compaction batches' addBatch, every 1,000 batches (MANIFEST_BATCHES=N for another count)
#   kafka:  a local KRaft broker (or $KAFKA_BOOTSTRAP), a 4-partition topic of 2 M x 200-byte records produced once;
#           the raw KafkaConsumer's fetch rate (one consumer over the 4 partitions with Sluice's fetch settings and
#           again with max.poll.records 10,000, then one consumer per partition on nproc threads with Sluice's
#           settings), then Sluice and Spark (spark-sql-kafka-0-10),
#           availableNow to noop, one after the other against the same broker and topic (not part of `all`)
#   s3:     s3jsonread s3plan100k (both engines; not part of `all`): a local S3 server (sluice-s3-server's S3Mock,
#           in a JVM of its own over bench/target/s3-data, started and stopped here) holding jsonread's events-json
#           (s3a://sluice-bench-events/events-json/) and plan100k's 100,000 objects
#           (s3a://sluice-bench-plan100k/plan100k/), one bucket each, seeded once before the server starts (written
#           in S3Mock's layout by S3Bench seed, kept in bench/target/s3-data); the same queries as jsonread and
#           plan100k read them: Sluice through sluice-s3, Spark through hadoop-aws's S3A. S3_PLAN_OBJECTS=N uses the
#           first N files of plan100k instead, in s3a://sluice-bench-planN/planN/
#   ceph:   with s3 (or s3jsonread, s3plan100k): the same workloads against a one-node Ceph cluster's S3 gateway
#           (RGW) instead of S3Mock, started and stopped here by bench/ceph-rgw.sh (Debian's ceph-mon, ceph-osd and
#           radosgw, installed when missing; BlueStore over a file in bench/target/ceph, kept between runs), the data
#           PUT into it on first use (S3Bench put): a store with a real bucket index and a C++ data path, as a real
#           one has
#   stateful: windowcount dedup10m statefuloverhead (both engines; not part of `all`, ~8 minutes): Sluice's
#           StatefulBench and Spark's SparkStatefulBench (2 state partitions each): a 10 s tumbling-window count with
#           a 10 s watermark over rate-micro-batch at 1 M rows a batch, append, to noop (rows/s batch against
#           batch); dropDuplicates("value") in the RocksDB store until 10 M distinct keys (rows/s), then a fresh JVM
#           restarts on that checkpoint (start() to its first batch); the window count at 1,000 rows a batch
#           (median batchDuration)
#   cli:    whole-process start-up of the `sluice` command (not part of `all`): CLI_RUNS (default 10) runs of
#           `bin/sluice run --source rate-micro-batch --source-option rowsPerBatch=1000 --sink noop --checkpoint DIR
#           --trigger availableNow` (one batch), timed from the shell, in four variants in turn: as launched (its class
#           data sharing archive and C2 thresholds), with the JVM's own C2 thresholds (the archive alone), with neither
#           (SLUICE_CDS=off and the JVM's thresholds), and with -XX:TieredStopAtLevel=1 (no C2) added; then
#           CLI_SPARK_RUNS (default 3; 0 skips it) whole-process runs of Spark's `startup` workload (JVM, SparkSession,
#           one rate-micro-batch batch to noop, stop). Median, min and max wall ms, median CPU ms (user + sys).
#           CLI_BASELINE_JAR=PATH adds a fourth variant in turn: `java -jar PATH run ...` (an older build's jar).
#
# The file workloads read data generated once under bench/target/data by io.sluice.bench.GenerateEvents:
# events-json, events-csv and events-parquet (100 files x 20,000 rows, the same rows; the Parquet files are written
# by Sluice's Parquet sink encoder with its defaults, which are Spark's: snappy, 128 MiB row groups, so one row
# group per file, 1 MiB pages, dictionary, INT96 timestamps), plan100k (100,000 one-line JSON files),
# plan200k (200,000 one-line JSON files, read in one trigger: no maxFilesPerTrigger).
# `seenfiles` runs two mains of sluice-files' test sources on its test classpath (sluice-files/target/test-classes
# plus the shaded sluice-bench jar): PlanningScaleMain 100000 (a trigger that finds nothing new, a restart) and
# SeenFilesScaleMain 10000000 hot (restart with 10 M files in the seen-files state, child JVM -Xmx256m); their
# output goes to the results file as it is. Spark has no peer for it (see docs/benchmarks.md).
#
# Builds both benchmark programs if needed, runs each workload on Sluice then on Spark, prints a side-by-side table
# with the ratio, and keeps the raw lines in bench/target/results-<time>.txt. Maven (bench/mvn.sh's bench_mvn, for
# `tables` too) runs offline first; when that fails because an artifact is missing from ~/.m2 (a fresh machine:
# Spark's dependencies, maven-dependency-plugin's own), the build is retried once online, said so on stderr; any
# other build failure stops the run as it is. MVN_OFFLINE overrides the choice for every build: MVN_OFFLINE= builds
# online from the start, MVN_OFFLINE=-o offline only. Both JVMs get the same heap flags ($HEAP, default -Xmx2g, default GC); Spark also
# gets the --add-opens flags of bench/spark-bench/jvm-opens.txt. `java` on PATH. Checkpoints go to
# bench/target/checkpoints (a real folder on disk: Sluice's fsynced log writes are included).
#
# REPEAT=N (default 1) runs jsonread, csvread, parquetread, jsonwrite and parquetwrite N times per engine,
# alternating Sluice and Spark, each in a fresh JVM: the table shows each engine's median run (reads by seconds,
# writes by whole-run rows/s) and every pair's figures and ratio.
set -euo pipefail

cd "$(dirname "$0")/.."
# tables: Delta and Iceberg against Spark 4.0 + the official connectors (bench/tables.sh; not part of `all`).
if [[ "${1:-}" == tables ]]; then shift; exec bench/tables.sh "$@"; fi
WHAT=${*:-all}
ENGINE_WORKLOADS="overhead throughput startup"
FILE_WORKLOADS="jsonread csvread parquetread jsonwrite parquetwrite plan100k plan200k"
PARQUET_WORKLOADS="parquetread parquetwrite"
WORKLOADS=
for what in $WHAT; do
  case "$what" in
    all) WORKLOADS+=" $ENGINE_WORKLOADS $FILE_WORKLOADS seenfiles python";;
    engine) WORKLOADS+=" $ENGINE_WORKLOADS";;
    files) WORKLOADS+=" $FILE_WORKLOADS seenfiles";;
    s3) WORKLOADS+=" s3jsonread s3plan100k";;
    parquet) WORKLOADS+=" $PARQUET_WORKLOADS";;
    s3jsonread|s3plan100k) WORKLOADS+=" $what";;
    ceph) S3_CEPH=true;;
    stateful) WORKLOADS+=" windowcount dedup10m statefuloverhead";;
    windowcount|dedup10m|statefuloverhead) WORKLOADS+=" $what";;
    overhead|throughput|startup|jsonread|csvread|parquetread|jsonwrite|parquetwrite|plan100k|plan200k|seenfiles|manifest|kafka|cli|python) WORKLOADS+=" $what";;
    *) echo "usage: $0 [overhead|throughput|startup|jsonread|csvread|parquetread|jsonwrite|parquetwrite|plan100k|plan200k|seenfiles|manifest|kafka|cli|python|s3jsonread|s3plan100k|ceph|windowcount|dedup10m|statefuloverhead|engine|files|parquet|s3|stateful|tables|all]..." >&2
       exit 2;;
  esac
done
wants() { [[ " $WORKLOADS " == *" $1 "* ]]; }
S3_CEPH=${S3_CEPH:-false}

HEAP=${HEAP:--Xmx2g}
REPEAT=${REPEAT:-1}
# shellcheck source=bench/mvn.sh
source bench/mvn.sh   # bench_mvn: offline first, online once on a missing artifact
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
CLI_RUNS=${CLI_RUNS:-10}
CLI_SPARK_RUNS=${CLI_SPARK_RUNS:-3}
# `cli` alone needs neither benchmark program (Spark's only for its CLI_SPARK_RUNS); `python` alone needs only Sluice's.
only_cli=false
[[ $WORKLOADS == " cli" ]] && only_cli=true
only_python=false
[[ $WORKLOADS == " python" ]] && only_python=true
if ! $only_cli && stale "$SLUICE_JAR" pom.xml sluice-api/pom.xml sluice-api/src/main sluice-core/pom.xml sluice-core/src/main sluice-files/pom.xml sluice-files/src/main sluice-parquet/pom.xml sluice-parquet/src/main sluice-values/src/main sluice-kafka/src/main sluice-python/pom.xml sluice-python/src/main sluice-s3/src/main sluice-rocksdb/src/main bench/sluice-bench/pom.xml bench/sluice-bench/src bench/common/src; then
  echo "building bench/sluice-bench ..." >&2
  bench_mvn -pl bench/sluice-bench -am package -DskipTests
fi
if ! $only_python && { ! $only_cli || (( CLI_SPARK_RUNS > 0 )); } && { stale "$SPARK_JAR" bench/spark-bench/pom.xml bench/spark-bench/src bench/common/src || [[ ! -f $SPARK_CP ]]; }; then
  echo "building bench/spark-bench ..." >&2
  bench_mvn -pl bench/spark-bench package -DskipTests
fi

FILES_TESTS=sluice-files/target/test-classes
if wants seenfiles && { [[ ! -f $FILES_TESTS/io/sluice/files/source/SeenFilesScaleMain.class ]] ||
    [[ -n $(find sluice-files/src/test -type f -newer "$FILES_TESTS/io/sluice/files/source/SeenFilesScaleMain.class" -print -quit) ]]; }; then
  echo "compiling sluice-files test classes ..." >&2
  bench_mvn -pl sluice-files -am test-compile
fi

# ---------------------------------------------------------------- data (generated once)

DATA=bench/target/data
gen() { # gen NAME FORMAT FILES LINES
  [[ -d $DATA/$1 ]] && return 0
  echo "generating $DATA/$1 ..." >&2
  rm -rf "$DATA/$1.tmp"
  java -cp "$SLUICE_JAR" io.sluice.bench.GenerateEvents "$DATA/$1.tmp" "$2" "$3" "$4" >&2
  mv "$DATA/$1.tmp" "$DATA/$1"
}
{ wants jsonread || wants s3jsonread; } && gen events-json json 100 20000
wants csvread && gen events-csv csv 100 20000
wants parquetread && gen events-parquet parquet 100 20000
{ wants plan100k || wants s3plan100k; } && gen plan100k json 100000 1
wants plan200k && gen plan200k json 200000 1

SLUICE=(java $HEAP -Dbench.dir="$CHK" -jar "$SLUICE_JAR")
# (no classpath file when only Sluice's program was built: `python` alone)
SPARK=(java $HEAP $(cat bench/spark-bench/jvm-opens.txt) -Dbench.dir="$CHK" -cp "$SPARK_JAR:$(cat "$SPARK_CP" 2>/dev/null || true)" io.sluice.bench.SparkBench)

# ---------------------------------------------------------------- run

{
  echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -srm), nproc=$(nproc), $(free -m | awk '/^Mem:/{print $2 " MB RAM"}')"
  echo "# $(java -version 2>&1 | head -1), heap flags: $HEAP"
} | tee "$RESULTS"

run() { # run ENGINE WORKLOAD [ARG...]: one JVM, one result line
  local engine=$1 workload=$2 line
  shift 2
  echo "running $engine $workload $* (load: $(cut -d' ' -f1-3 /proc/loadavg)) ..." >&2
  echo "# $engine $workload $*: load average before $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RESULTS"
  if [[ $engine == sluice ]]; then line=$("${SLUICE[@]}" "$workload" "$@" | grep "^sluice $workload ")
  else line=$("${SPARK[@]}" "$workload" "$@" | grep "^spark $workload "); fi
  echo "$line" | tee -a "$RESULTS" >&2
  echo "$line"
}
args() { # the arguments each workload gets
  case $1 in
    jsonread) echo "$DATA/events-json";;
    csvread) echo "$DATA/events-csv";;
    parquetread) echo "$DATA/events-parquet";;
    plan100k) echo "$DATA/plan100k 1000";;
    plan200k) echo "$DATA/plan200k 0";;
    jsonwrite) echo "1000000 20";;
    parquetwrite) echo "1000000 30";;   # Spark's first batch alone takes ~10 s of it
  esac
}
val() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; }   # val LINE KEY
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b + 0 == 0) print "n/a"; else printf "%.1fx", a / b }'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "n/a"; else printf "%.0f%%", 100 * a / b }'; }
num() { awk -v a="$1" 'BEGIN { if (a >= 1e6) printf "%.2f M", a / 1e6; else printf "%g", a }'; }

median() { # median KEY LINE...: the line whose KEY= is the median (the lower middle one for an even count)
  local key=$1 n=$(( $# - 1 ))
  shift
  printf '%s\n' "$@" | awk -v k="$key=" '{ for (i = 1; i <= NF; i++) if (index($i, k) == 1) print substr($i, length(k) + 1), $0 }' \
    | sort -g | sed -n "$(( (n + 1) / 2 ))p" | cut -d' ' -f2-
}

declare -A R
for w in $ENGINE_WORKLOADS $FILE_WORKLOADS; do
  wants "$w" || continue
  if [[ $w == *read || $w == *write ]] && (( REPEAT > 1 )); then
    sl=() sp=() pairs=
    for ((i = 1; i <= REPEAT; i++)); do
      # shellcheck disable=SC2046
      sl+=("$(run sluice $w $(args $w))")
      # shellcheck disable=SC2046
      sp+=("$(run spark $w $(args $w))")
      if [[ $w == *read ]]; then
        a=$(val "${sl[-1]}" seconds) b=$(val "${sp[-1]}" seconds)
        pairs+="${pairs:+, }$a / $b = $(ratio "$b" "$a")"
      else
        a=$(val "${sl[-1]}" run_rows_per_s) b=$(val "${sp[-1]}" run_rows_per_s)
        c=$(val "${sl[-1]}" rows_per_s) d=$(val "${sp[-1]}" rows_per_s)
        pairs+="${pairs:+, }$(num "$a") / $(num "$b") = $(ratio "$a" "$b") (batches $(ratio "$c" "$d"))"
      fi
    done
    key=seconds
    [[ $w == *write ]] && key=run_rows_per_s
    R[sluice_$w]=$(median $key "${sl[@]}")
    R[spark_$w]=$(median $key "${sp[@]}")
    R[pairs_$w]=$pairs
    continue
  fi
  # shellcheck disable=SC2046
  R[sluice_$w]=$(run sluice $w $(args $w))
  # shellcheck disable=SC2046
  R[spark_$w]=$(run spark $w $(args $w))
done
if wants seenfiles; then
  FILES_CP="$FILES_TESTS:$SLUICE_JAR"
  for main in "PlanningScaleMain 100000" "SeenFilesScaleMain 10000000 hot"; do
    echo "running sluice $main (load: $(cut -d' ' -f1-3 /proc/loadavg)) ..." >&2
    { echo "# sluice $main: load average before $(cut -d' ' -f1-3 /proc/loadavg)"
      # shellcheck disable=SC2086
      java $HEAP -cp "$FILES_CP" io.sluice.files.source.$main; } 2>&1 | tee -a "$RESULTS" >&2
  done
fi

if wants manifest; then
  for opts in "cleanupDelay=10s" "cleanupDelay=10s retention=30s"; do
    echo "running sluice manifest ${MANIFEST_BATCHES:-20000} $opts (load: $(cut -d' ' -f1-3 /proc/loadavg)) ..." >&2
    echo "# sluice manifest ${MANIFEST_BATCHES:-20000} $opts: load average before $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RESULTS"
    # shellcheck disable=SC2086
    "${SLUICE[@]}" manifest "${MANIFEST_BATCHES:-20000}" $opts | grep "^sluice manifest" | tee -a "$RESULTS" >&2
  done
fi

if wants kafka; then
  KB=${KAFKA_BOOTSTRAP:-}
  KJ=(java $HEAP -Dorg.slf4j.simpleLogger.log.org.apache.kafka=error -cp "$SLUICE_JAR" io.sluice.bench.KafkaBench)
  if [[ -z $KB ]]; then
    mkdir -p bench/target/kafka-data
    exec 7> >("${KJ[@]}" broker bench/target/kafka-data >bench/target/kafka-broker.out 2>&1)
    for _ in $(seq 60); do grep -q '^bootstrap ' bench/target/kafka-broker.out 2>/dev/null && break; sleep 1; done
    KB=$(sed -n 's/^bootstrap //p' bench/target/kafka-broker.out)
  fi
  "${KJ[@]}" prepare "$KB" sluice-bench-4x2m 2000000 >&2
  kafka_run() { # kafka_run KEY PREFIX COMMAND...: one JVM against the broker, one result line
    local key=$1 prefix=$2
    shift 2
    echo "running $key kafka (load: $(cut -d' ' -f1-3 /proc/loadavg)) ..." >&2
    echo "# $key kafka: load average before $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RESULTS"
    R[${key}_kafka]=$("$@" | grep "^$prefix kafka " | tee -a "$RESULTS")
    echo "${R[${key}_kafka]}" >&2
  }
  kafka_run raw raw "${KJ[@]}" raw "$KB" sluice-bench-4x2m one sluice
  kafka_run rawlarge raw "${KJ[@]}" raw "$KB" sluice-bench-4x2m one large
  kafka_run rawtasks raw "${KJ[@]}" raw "$KB" sluice-bench-4x2m tasks sluice
  kafka_run sluice sluice "${KJ[@]}" sluice "$KB" sluice-bench-4x2m
  kafka_run spark spark "${SPARK[@]}" kafka "$KB" sluice-bench-4x2m
  [[ -z ${KAFKA_BOOTSTRAP:-} ]] && exec 7>&-   # closing its stdin stops the broker
fi

if wants s3jsonread || wants s3plan100k; then
  n=${S3_PLAN_OBJECTS:-100000}
  S3READ=s3a://sluice-bench-events/events-json/
  S3PLAN=s3a://sluice-bench-plan100k/plan100k/
  (( n == 100000 )) || S3PLAN=s3a://sluice-bench-plan$n/plan$n/
  if $S3_CEPH; then
    bench/ceph-rgw.sh start bench/target/ceph >bench/target/ceph-rgw.out
    trap 'bench/ceph-rgw.sh stop bench/target/ceph' EXIT
    S3E=$(sed -n 's/^endpoint //p' bench/target/ceph-rgw.out)
    S3PUT=(java $HEAP -cp "$SLUICE_JAR" io.sluice.bench.S3Bench put "$S3E")
    wants s3jsonread && "${S3PUT[@]}" "$S3READ" "$DATA/events-json" >&2
    wants s3plan100k && "${S3PUT[@]}" "$S3PLAN" "$DATA/plan100k" "$n" >&2
    echo "# s3 server: Ceph RGW $(radosgw --version | awk '{print $3}') (bench/ceph-rgw.sh, BlueStore)" >>"$RESULTS"
  else
    S3_CP="sluice-s3-server/target/sluice-s3-server-0.1.0-SNAPSHOT.jar:sluice-s3-server/target/s3-server/*"
    [[ -d sluice-s3-server/target/s3-server ]] || bench_mvn -pl sluice-s3-server -am package -DskipTests
    mkdir -p bench/target/s3-data
    # One bucket per data set (S3Mock's requests cost in proportion to their bucket's objects), seeded once straight
    # into the server's folder before it starts (S3Bench seed; PUTs would cost S3Mock the bucket's key map each).
    S3SEED=(java $HEAP -cp "$S3_CP:$SLUICE_JAR" io.sluice.bench.S3Bench seed bench/target/s3-data)
    wants s3jsonread && "${S3SEED[@]}" "$S3READ" "$DATA/events-json" >&2
    wants s3plan100k && "${S3SEED[@]}" "$S3PLAN" "$DATA/plan100k" "$n" >&2
    rm -f bench/target/s3-server.out
    # The server's JVM (its own class path: Spring Boot is not shaded) reads its stdin to its end: closing fd 8 stops it.
    exec 8> >(java -Xmx1g -cp "$S3_CP:$SLUICE_JAR" io.sluice.bench.S3Bench server bench/target/s3-data \
        >bench/target/s3-server.out 2>&1)
    for _ in $(seq 120); do grep -q '^endpoint ' bench/target/s3-server.out 2>/dev/null && break; sleep 1; done
    S3E=$(sed -n 's/^endpoint //p' bench/target/s3-server.out)
    [[ -n $S3E ]] || { echo "the S3 server did not start: bench/target/s3-server.out" >&2; exit 1; }
    echo "# s3 server: S3Mock (sluice-s3-server)" >>"$RESULTS"
  fi
  if wants s3jsonread; then
    R[sluice_s3jsonread]=$(run sluice s3jsonread "$S3E" "$S3READ")
    R[spark_s3jsonread]=$(run spark s3jsonread "$S3E" "$S3READ")
  fi
  if wants s3plan100k; then
    R[sluice_s3plan100k]=$(run sluice s3plan100k "$S3E" "$S3PLAN" 1000)
    R[spark_s3plan100k]=$(run spark s3plan100k "$S3E" "$S3PLAN" 1000)
  fi
  $S3_CEPH || exec 8>&-
fi

if wants python; then
  echo "running sluice python ${PYTHON_ROWS:-4000000} ${PYTHON_ROUNDS:-3} (load: $(cut -d' ' -f1-3 /proc/loadavg)) ..." >&2
  echo "# sluice python ${PYTHON_ROWS:-4000000} ${PYTHON_ROUNDS:-3}: load average before $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RESULTS"
  out=$("${SLUICE[@]}" python "${PYTHON_ROWS:-4000000}" "${PYTHON_ROUNDS:-3}" | grep "^sluice python" | tee -a "$RESULTS")
  echo "$out" >&2
  R[sluice_python]=$(grep "^sluice python " <<<"$out")
  R[sluice_python_stages]=$(grep "^sluice python-stages " <<<"$out")
fi

for w in windowcount dedup10m statefuloverhead; do
  wants "$w" || continue
  for engine in sluice spark; do
    echo "running $engine $w (load: $(cut -d' ' -f1-3 /proc/loadavg)) ..." >&2
    echo "# $engine $w: load average before $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RESULTS"
    if [[ $engine == sluice ]]; then main=(java $HEAP -Dbench.dir="$CHK" -cp "$SLUICE_JAR" io.sluice.bench.StatefulBench)
    else main=("${SPARK[@]:0:${#SPARK[@]}-1}" io.sluice.bench.SparkStatefulBench); fi
    R[${engine}_$w]=$("${main[@]}" "$w" | grep "^$engine $w " | tee -a "$RESULTS")
    echo "${R[${engine}_$w]}" >&2
  done
done

if wants cli; then
  bin/sluice --version >/dev/null   # builds the jars and writes the class data sharing archive when needed
  cli_run() { # cli_run I COMMAND...: one whole process; prints "wall_ms cpu_ms" (TIMEFORMAT: real, user, sys)
    local i=$1 chk=$CHK/cli-$1 t
    shift
    rm -rf "$chk"
    t=$( { TIMEFORMAT='%R %U %S'; time "$@" >/dev/null 2>&1; } 2>&1 ) || { echo "failed: $*" >&2; exit 1; }
    rm -rf "$chk"
    awk '{ printf "%d %d", $1 * 1000, ($2 + $3) * 1000 }' <<<"$t"
  }
  cli_line() { # cli_line ENGINE VARIANT "WALL CPU"...: the result line of one variant's runs (medians: lower middle)
    local engine=$1 variant=$2 n w c
    shift 2
    n=$#
    w=$(printf '%s\n' "$@" | cut -d' ' -f1 | sort -n | tr '\n' ' ')
    c=$(printf '%s\n' "$@" | cut -d' ' -f2 | sort -n | tr '\n' ' ')
    awk -v e="$engine" -v v="$variant" -v n="$n" -v w="$w" -v c="$c" -v all="$(printf '%s\n' "$@" | cut -d' ' -f1 | paste -sd,)" '
      BEGIN { split(w, W, " "); split(c, C, " "); m = int((n + 1) / 2)
              printf "%s cli variant=%s runs=%d median_ms=%d min_ms=%d max_ms=%d cpu_median_ms=%d all_ms=%s\n",
                     e, v, n, W[m], W[1], W[n], C[m], all }'
  }
  sluice_cmd=(bin/sluice run --source rate-micro-batch --source-option rowsPerBatch=1000 --sink noop --trigger availableNow)
  jvm_c2="-XX:Tier4InvocationThreshold=5000 -XX:Tier4MinInvocationThreshold=600 -XX:Tier4CompileThreshold=15000"
  jvm_c2+=" -XX:Tier4BackEdgeThreshold=40000"   # the JVM's defaults, after the launcher's: they win
  launched=() cds=() plain=() c1=() base=()
  echo "running sluice cli x $CLI_RUNS, the variants in turn (load: $(cut -d' ' -f1-3 /proc/loadavg)) ..." >&2
  echo "# sluice cli x $CLI_RUNS: load average before $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RESULTS"
  for ((i = 1; i <= CLI_RUNS; i++)); do
    launched+=("$(cli_run "$i" "${sluice_cmd[@]}" --checkpoint "$CHK/cli-$i")")
    cds+=("$(SLUICE_JAVA_OPTS="$jvm_c2 ${SLUICE_JAVA_OPTS:-}" cli_run "$i" "${sluice_cmd[@]}" --checkpoint "$CHK/cli-$i")")
    plain+=("$(SLUICE_CDS=off SLUICE_JAVA_OPTS="$jvm_c2 ${SLUICE_JAVA_OPTS:-}" cli_run "$i" "${sluice_cmd[@]}" \
        --checkpoint "$CHK/cli-$i")")
    c1+=("$(SLUICE_JAVA_OPTS="${SLUICE_JAVA_OPTS:-} -XX:TieredStopAtLevel=1" cli_run "$i" "${sluice_cmd[@]}" \
        --checkpoint "$CHK/cli-$i")")
    if [[ -n ${CLI_BASELINE_JAR:-} ]]; then
      base+=("$(cli_run "$i" java -jar "$CLI_BASELINE_JAR" "${sluice_cmd[@]:1}" --checkpoint "$CHK/cli-$i")")
    fi
  done
  echo "# sluice cli: load average after $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RESULTS"
  R[sluice_cli]=$(cli_line sluice launched "${launched[@]}" | tee -a "$RESULTS")
  R[sluice_cli_cds]=$(cli_line sluice cds_only "${cds[@]}" | tee -a "$RESULTS")
  R[sluice_cli_plain]=$(cli_line sluice plain_jvm "${plain[@]}" | tee -a "$RESULTS")
  R[sluice_cli_c1]=$(cli_line sluice c1_only "${c1[@]}" | tee -a "$RESULTS")
  printf '%s\n' "${R[sluice_cli]}" "${R[sluice_cli_cds]}" "${R[sluice_cli_plain]}" "${R[sluice_cli_c1]}" >&2
  if [[ -n ${CLI_BASELINE_JAR:-} ]]; then
    echo "# sluice cli baseline: $CLI_BASELINE_JAR" >>"$RESULTS"
    R[sluice_cli_base]=$(cli_line sluice baseline "${base[@]}" | tee -a "$RESULTS")
    echo "${R[sluice_cli_base]}" >&2
  fi
  if (( CLI_SPARK_RUNS > 0 )); then
    echo "running spark cli (startup, whole process) x $CLI_SPARK_RUNS (load: $(cut -d' ' -f1-3 /proc/loadavg)) ..." >&2
    echo "# spark cli x $CLI_SPARK_RUNS: load average before $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RESULTS"
    sp=()
    for ((i = 1; i <= CLI_SPARK_RUNS; i++)); do sp+=("$(cli_run "$i" "${SPARK[@]}" startup)"); done
    R[spark_cli]=$(cli_line spark startup "${sp[@]}" | tee -a "$RESULTS")
    echo "${R[spark_cli]}" >&2
  fi
fi

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
  if [[ -n ${R[sluice_cli]:-} ]]; then
    a=${R[sluice_cli]} b=${R[spark_cli]:-}
    row "cli: one-batch run, whole process, median ms" "$(val "$a" median_ms)" "$(val "$b" median_ms)" "${b:+$(ratio "$(val "$b" median_ms)" "$(val "$a" median_ms)") (Spark/Sluice)}"
    row "cli: min / max ms" "$(val "$a" min_ms) / $(val "$a" max_ms)" "$(val "$b" min_ms) / $(val "$b" max_ms)" ""
    row "cli: median CPU ms (user + sys)" "$(val "$a" cpu_median_ms)" "$(val "$b" cpu_median_ms)" ""
    a=${R[sluice_cli_cds]}
    row "cli: the archive alone (JVM's C2 thresholds), median / CPU ms" "$(val "$a" median_ms) / $(val "$a" cpu_median_ms)" "" ""
    a=${R[sluice_cli_plain]}
    row "cli: neither (plain JVM), median / CPU ms" "$(val "$a" median_ms) / $(val "$a" cpu_median_ms)" "" ""
    a=${R[sluice_cli_c1]}
    row "cli: launched + TieredStopAtLevel=1, median / CPU ms" "$(val "$a" median_ms) / $(val "$a" cpu_median_ms)" "" ""
    if [[ -n ${R[sluice_cli_base]:-} ]]; then
      a=${R[sluice_cli_base]}
      row "cli: CLI_BASELINE_JAR, median / CPU ms" "$(val "$a" median_ms) / $(val "$a" cpu_median_ms)" "" ""
    fi
  fi
  if [[ -n ${R[sluice_windowcount]:-} ]]; then
    a=${R[sluice_windowcount]} b=${R[spark_windowcount]}
    row "windowcount: rows/s (sum rows / sum duration)" "$(num "$(val "$a" rows_per_s)")" "$(num "$(val "$b" rows_per_s)")" "$(ratio "$(val "$a" rows_per_s)" "$(val "$b" rows_per_s)") (Sluice/Spark)"
    row "windowcount: median ms per 1 M-row batch" "$(val "$a" median_ms)" "$(val "$b" median_ms)" "$(val "$a" batches) / $(val "$b" batches) batches"
  fi
  if [[ -n ${R[sluice_dedup10m]:-} ]]; then
    a=${R[sluice_dedup10m]} b=${R[spark_dedup10m]}
    row "dedup10m: rows/s, 10 x 1 M distinct keys (RocksDB)" "$(num "$(val "$a" rows_per_s)")" "$(num "$(val "$b" rows_per_s)")" "$(ratio "$(val "$a" rows_per_s)" "$(val "$b" rows_per_s)") (Sluice/Spark)"
    row "dedup10m: last (10th) batch, ms" "$(val "$a" last_ms)" "$(val "$b" last_ms)" ""
    row "dedup10m: state on disk, MB" "$(val "$a" state_mb)" "$(val "$b" state_mb)" ""
    row "dedup10m: restart, start() to first batch, ms" "$(val "$a" restart_ms)" "$(val "$b" restart_ms)" "$(ratio "$(val "$b" restart_ms)" "$(val "$a" restart_ms)") (Spark/Sluice)"
    row "dedup10m: restart's first batch (1,000 rows), ms" "$(val "$a" restart_first_batch_ms)" "$(val "$b" restart_first_batch_ms)" ""
  fi
  if [[ -n ${R[sluice_statefuloverhead]:-} ]]; then
    a=${R[sluice_statefuloverhead]} b=${R[spark_statefuloverhead]}
    row "statefuloverhead: median batchDuration, ms" "$(val "$a" median_ms)" "$(val "$b" median_ms)" "$(ratio "$(val "$b" median_ms)" "$(val "$a" median_ms)") (Spark/Sluice)"
    row "statefuloverhead: p90 batchDuration, ms" "$(val "$a" p90_ms)" "$(val "$b" p90_ms)" "$(val "$a" batches) / $(val "$b" batches) batches"
  fi
  for w in jsonread csvread parquetread s3jsonread; do
    [[ -n ${R[sluice_$w]:-} ]] || continue
    a=${R[sluice_$w]} b=${R[spark_$w]}
    row "$w: rows" "$(val "$a" rows)" "$(val "$b" rows)" ""
    row "$w: seconds, start() to termination" "$(val "$a" seconds)" "$(val "$b" seconds)" "$(ratio "$(val "$b" seconds)" "$(val "$a" seconds)") (Spark/Sluice)"
    row "$w: rows/s" "$(num "$(val "$a" rows_per_s)")" "$(num "$(val "$b" rows_per_s)")" "$(ratio "$(val "$a" rows_per_s)" "$(val "$b" rows_per_s)") (Sluice/Spark)"
    row "$w: the batch alone, ms (batchDuration)" "$(val "$a" batch_ms)" "$(val "$b" batch_ms)" "$(ratio "$(val "$b" batch_ms)" "$(val "$a" batch_ms)") (Spark/Sluice)"
    if [[ -n ${R[pairs_$w]:-} ]]; then
      echo "$w: the medians of $REPEAT runs per engine above; each pair, seconds Sluice / Spark: ${R[pairs_$w]}"
    fi
  done
  for w in jsonwrite parquetwrite; do
    [[ -n ${R[sluice_$w]:-} ]] || continue
    a=${R[sluice_$w]} b=${R[spark_$w]}
    row "$w: rows/s, whole run (start() to last batch end)" "$(num "$(val "$a" run_rows_per_s)")" "$(num "$(val "$b" run_rows_per_s)")" "$(ratio "$(val "$a" run_rows_per_s)" "$(val "$b" run_rows_per_s)") (Sluice/Spark)"
    row "$w: rows/s, batches (sum rows / sum duration)" "$(num "$(val "$a" rows_per_s)")" "$(num "$(val "$b" rows_per_s)")" "$(ratio "$(val "$a" rows_per_s)" "$(val "$b" rows_per_s)") (Sluice/Spark)"
    row "$w: batches measured / median ms" "$(val "$a" batches) / $(val "$a" median_ms)" "$(val "$b" batches) / $(val "$b" median_ms)" ""
    row "$w: MB written" "$(val "$a" out_mb)" "$(val "$b" out_mb)" ""
    if [[ -n ${R[pairs_$w]:-} ]]; then
      echo "$w: the medians of $REPEAT runs per engine above (by whole-run rows/s); each pair, whole-run rows/s Sluice / Spark: ${R[pairs_$w]}"
    fi
  done
  if [[ -n ${R[sluice_plan100k]:-} ]]; then
    a=${R[sluice_plan100k]} b=${R[spark_plan100k]}
    row "plan100k: batch 0 latestOffset, ms" "$(val "$a" batch0_latest_offset_ms)" "$(val "$b" batch0_latest_offset_ms)" "$(ratio "$(val "$b" batch0_latest_offset_ms)" "$(val "$a" batch0_latest_offset_ms)") (Spark/Sluice)"
    row "plan100k: batch 0 batchDuration, ms" "$(val "$a" batch0_total_ms)" "$(val "$b" batch0_total_ms)" "$(ratio "$(val "$b" batch0_total_ms)" "$(val "$a" batch0_total_ms)") (Spark/Sluice)"
    row "plan100k: start() to batch 0's progress, s" "$(val "$a" start_to_batch0_s)" "$(val "$b" start_to_batch0_s)" ""
  fi
  if [[ -n ${R[sluice_s3plan100k]:-} ]]; then
    a=${R[sluice_s3plan100k]} b=${R[spark_s3plan100k]}
    row "s3plan100k: batch 0 latestOffset, ms" "$(val "$a" batch0_latest_offset_ms)" "$(val "$b" batch0_latest_offset_ms)" "$(ratio "$(val "$b" batch0_latest_offset_ms)" "$(val "$a" batch0_latest_offset_ms)") (Spark/Sluice)"
    row "s3plan100k: batch 0 batchDuration, ms" "$(val "$a" batch0_total_ms)" "$(val "$b" batch0_total_ms)" "$(ratio "$(val "$b" batch0_total_ms)" "$(val "$a" batch0_total_ms)") (Spark/Sluice)"
    row "s3plan100k: start() to batch 0's progress, s" "$(val "$a" start_to_batch0_s)" "$(val "$b" start_to_batch0_s)" "$(ratio "$(val "$b" start_to_batch0_s)" "$(val "$a" start_to_batch0_s)") (Spark/Sluice)"
  fi
  if [[ -n ${R[sluice_plan200k]:-} ]]; then
    a=${R[sluice_plan200k]} b=${R[spark_plan200k]}
    row "plan200k: batch 0 latestOffset, ms" "$(val "$a" batch0_latest_offset_ms)" "$(val "$b" batch0_latest_offset_ms)" "$(ratio "$(val "$b" batch0_latest_offset_ms)" "$(val "$a" batch0_latest_offset_ms)") (Spark/Sluice)"
    row "plan200k: batch 0 batchDuration, ms" "$(val "$a" batch0_total_ms)" "$(val "$b" batch0_total_ms)" "$(ratio "$(val "$b" batch0_total_ms)" "$(val "$a" batch0_total_ms)") (Spark/Sluice)"
    row "plan200k: start() to batch 0's progress, s" "$(val "$a" start_to_batch0_s)" "$(val "$b" start_to_batch0_s)" "$(ratio "$(val "$b" start_to_batch0_s)" "$(val "$a" start_to_batch0_s)") (Spark/Sluice)"
    row "plan200k: peak RSS, MB" "$(val "$a" rss_peak_mb)" "$(val "$b" rss_peak_mb)" ""
  fi
  if [[ -n ${R[sluice_python]:-} ]]; then
    a=${R[sluice_python]} s=${R[sluice_python_stages]}
    g=$(awk -v r="$(val "$s" generate_rows_per_s)" 'BEGIN { print 2 * r }')
    row "python: Java source, rows/s (median of $(val "$a" rounds))" "$(num "$(val "$a" java_rows_per_s)")" "" ""
    row "python: Python source, 2 workers, rows/s" "$(num "$(val "$a" python_rows_per_s)")" "" "$(ratio "$(val "$a" java_rows_per_s)" "$(val "$a" python_rows_per_s)") (Java/Python)"
    echo "python: every round's Java/Python ratio: $(val "$a" round_ratios)"
    row "python: per row, the user's generator, us" "$(val "$s" generate_us)" "" ""
    row "python: per row, encoding (sluice_rows), us" "$(val "$s" encode_us)" "" ""
    row "python: per row, writing to the pipe, us" "$(val "$s" send_us)" "" "$(val "$s" bytes_per_row) bytes/row"
    row "python: per row, the JVM's decoding, us" "$(val "$s" decode_us)" "" ""
    row "python: the generator alone x 2 workers, rows/s" "$(num "$g")" "" "$(ratio "$(val "$a" java_rows_per_s)" "$g") (Java/it)"
  fi
  if [[ -n ${R[sluice_kafka]:-} ]]; then
    a=${R[sluice_kafka]} b=${R[spark_kafka]:-} r=${R[raw_kafka]} t=${R[rawtasks_kafka]}
    row "kafka: rows/s, start() to termination" "$(num "$(val "$a" rows_per_s)")" "$(num "$(val "$b" rows_per_s)")" "$(ratio "$(val "$a" rows_per_s)" "$(val "$b" rows_per_s)") (Sluice/Spark)"
    row "kafka: rows/s, the batch (batchDuration)" "$(num "$(val "$a" batch_rows_per_s)")" "$(num "$(val "$b" batch_rows_per_s)")" "$(ratio "$(val "$a" batch_rows_per_s)" "$(val "$b" batch_rows_per_s)") (Sluice/Spark)"
    row "kafka: Sluice read (addBatch) rows/s" "$(num "$(val "$a" read_rows_per_s)")" "" ""
    row "kafka: raw, 1 consumer x 4 partitions, fetch" "$(num "$(val "$r" fetch_rows_per_s)")" "" "$(pct "$(val "$a" read_rows_per_s)" "$(val "$r" fetch_rows_per_s)") (Sluice read/raw)"
    l=${R[rawlarge_kafka]}
    row "kafka: raw, 1 consumer x 4 partitions, max.poll.records 10,000, fetch" "$(num "$(val "$l" fetch_rows_per_s)")" "" "$(pct "$(val "$a" read_rows_per_s)" "$(val "$l" fetch_rows_per_s)") (Sluice read/raw)"
    row "kafka: raw, 1 consumer per partition, fetch" "$(num "$(val "$t" fetch_rows_per_s)")" "" "$(pct "$(val "$a" read_rows_per_s)" "$(val "$t" fetch_rows_per_s)") (Sluice read/raw)"
  fi
} | tee -a "$RESULTS"
echo "raw results: $RESULTS" >&2
