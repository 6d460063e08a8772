package io.sluice.cli;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The jars the build ships, as a user runs them: {@code target/sluice.jar} and the broker jar beside it (run in the
 * package phase, after the shading). The sluice jar carries no broker, so it stays small and starts fast; {@code
 * kafka dev} loads the broker from {@code sluice-kafka-broker.jar}. Enabled only in the pom's {@code built-jars}
 * execution, which sets {@code sluice.built.jars}: in the test phase the jars do not exist yet, or are stale.
 */
@EnabledIfSystemProperty(named = "sluice.built.jars", matches = "true")
class BuiltJarsIT {
    private static final Path CLI_JAR = Path.of("target", "sluice.jar").toAbsolutePath();
    private static final Path BROKER_JAR = CLI_JAR.resolveSibling(BrokerPlugin.JAR_NAME);
    private static final long MAX_CLI_JAR_BYTES = 20L * 1024 * 1024;

    @TempDir
    Path tmp;

    @Test
    void theCliJarHoldsNoBrokerScalaOrLog4jAndStaysUnder20MB() throws IOException {
        assertThat(Files.size(CLI_JAR)).isLessThan(MAX_CLI_JAR_BYTES);
        List<String> entries = new ArrayList<>();
        List<String> referencingTheBroker = new ArrayList<>();
        try (JarFile jar = new JarFile(CLI_JAR.toFile())) {
            for (ZipEntry e : jar.stream().toList()) {
                entries.add(e.getName());
                // A class naming a broker class (LocalKafkaBroker, its exception) holds its internal name.
                if (e.getName().startsWith("io/sluice/") && e.getName().endsWith(".class")) {
                    try (var in = jar.getInputStream(e)) {
                        if (new String(in.readAllBytes(), StandardCharsets.ISO_8859_1)
                                .contains("io/sluice/kafka/broker/")) {
                            referencingTheBroker.add(e.getName());
                        }
                    }
                }
            }
        }
        assertThat(referencingTheBroker).isEmpty();
        assertThat(entries).contains("io/sluice/cli/Main.class", "io/sluice/kafka/KafkaSourceProvider.class",
                "org/apache/kafka/clients/consumer/KafkaConsumer.class");
        // (kafka-clients has kafka/kafka-version.properties, the broker's Scala classes are under kafka/ too.)
        assertThat(entries).noneMatch(e -> e.matches("kafka/.+\\.class") || e.startsWith("scala/")
                || e.startsWith("org/apache/logging/log4j/") || e.startsWith("org/apache/log4j/")
                || e.startsWith("io/sluice/kafka/broker/") || e.startsWith("org/apache/kafka/raft/")
                || e.startsWith("org/apache/kafka/controller/") || e.startsWith("org/apache/kafka/storage/"));
        // --metrics-port: Micrometer and the Prometheus text formats, without the protobuf format (2 MB).
        assertThat(entries).contains("io/sluice/metrics/SluiceServer.class",
                "io/micrometer/prometheusmetrics/PrometheusMeterRegistry.class",
                "io/prometheus/metrics/expositionformats/OpenMetricsTextFormatWriter.class");
        assertThat(entries).noneMatch(e -> e.startsWith("io/prometheus/metrics/expositionformats/generated/"));
        // --ui-port: the page's files and uPlot's minified build only (its other builds are 420 kB).
        assertThat(entries).contains("io/sluice/metrics/ui/index.html", "io/sluice/metrics/ui/app.js",
                "META-INF/resources/webjars/uplot/1.6.30/dist/uPlot.iife.min.js",
                "META-INF/resources/webjars/uplot/1.6.30/dist/uPlot.min.css");
        assertThat(entries).noneMatch(e -> e.startsWith("META-INF/resources/webjars/uplot/")
                && (e.endsWith(".esm.js") || e.endsWith(".cjs.js") || e.endsWith("uPlot.iife.js")));
        // The compression codecs Kafka topics use keep their native libraries for the main platforms.
        assertThat(entries).anyMatch(e -> e.startsWith("linux/amd64/libzstd-jni"))
                .anyMatch(e -> e.startsWith("darwin/aarch64/libzstd-jni"))
                .contains("org/xerial/snappy/native/Linux/x86_64/libsnappyjava.so",
                        "org/xerial/snappy/native/Windows/x86_64/snappyjava.dll",
                        "net/jpountz/util/linux/amd64/liblz4-java.so")
                .noneMatch(e -> e.startsWith("aix/") || e.startsWith("org/xerial/snappy/native/SunOS/"));
        try (JarFile broker = new JarFile(BROKER_JAR.toFile())) {
            assertThat(broker.getEntry("io/sluice/kafka/broker/LocalKafkaBroker.class")).isNotNull();
            assertThat(broker.getEntry("kafka/server/KafkaRaftServer.class")).isNotNull();
        }
    }

    @Test
    void kafkaDevRunsFromTheJarsUntilSigterm() throws Exception {
        Path out = tmp.resolve("dev-out.txt");
        Path err = tmp.resolve("dev-err.txt");
        Process dev = new ProcessBuilder(java(), "-jar", CLI_JAR.toString(), "kafka", "dev", "--port", "0",
                "--data-dir", tmp.resolve("data").toString())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        String servers;
        try {
            Pattern ready = Pattern.compile("^Kafka broker running: bootstrap servers (localhost:\\d+) \\(data in "
                    + Pattern.quote(tmp.resolve("data").toString()) + "\\)\\. Ctrl-C stops it\\.$", Pattern.MULTILINE);
            Matcher m = await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
                    .until(() -> ready.matcher(Files.readString(out)), Matcher::find);
            servers = m.group(1);

            assertThat(sluice("kafka", "topics", "--bootstrap-servers", servers, "create", "orders",
                    "--partitions", "2")).isEqualTo("Created topic 'orders' at " + servers
                    + ": 2 partitions, replication factor 1\n");
            try (KafkaProducer<String, String> p = new KafkaProducer<>(
                    Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers), new StringSerializer(),
                    new StringSerializer())) {
                p.send(new ProducerRecord<>("orders", 1, "k", "v")).get();
            }
            assertThat(sluice("kafka", "topics", "--bootstrap-servers", servers, "describe", "orders"))
                    .isEqualTo("Topic 'orders' at " + servers + ": 2 partitions, replication factor 1\n"
                            + "  partition 0: leader 1, earliest 0, latest 0\n"
                            + "  partition 1: leader 1, earliest 0, latest 1\n");
        } finally {
            dev.destroy(); // SIGTERM
            if (!dev.waitFor(60, TimeUnit.SECONDS)) {
                dev.destroyForcibly().waitFor();
            }
        }
        assertThat(dev.exitValue()).as(Files.readString(err)).isEqualTo(143);
        assertThat(Files.readString(out)).isEqualTo(KafkaCommandTest.devOutput(servers, tmp.resolve("data")));
    }

    @Test
    void withoutTheBrokerJarKafkaDevSaysHowToBuildIt() throws Exception {
        Path missing = tmp.resolve("nowhere").resolve(BrokerPlugin.JAR_NAME);
        ProcessBuilder pb = new ProcessBuilder(java(), "-jar", CLI_JAR.toString(), "kafka", "dev", "--port", "0",
                "--data-dir", tmp.resolve("data").toString())
                .redirectOutput(tmp.resolve("out.txt").toFile()).redirectError(tmp.resolve("err.txt").toFile());
        pb.environment().put(BrokerPlugin.JAR_ENV, missing.toString());
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(1);
        assertThat(Files.readString(tmp.resolve("out.txt"))).isEmpty();
        assertThat(Files.readString(tmp.resolve("err.txt"))).isEqualTo("sluice: " + BrokerPlugin.missing(missing)
                + "\n");
    }

    @Test
    void theBuiltPluginsAreBesideTheCliJarAndTheCliJarHoldsNoParquet() throws IOException {
        Path folder = CLI_JAR.resolveSibling(Plugins.FOLDER);
        List<String> expected = new ArrayList<>();
        for (Plugins.Known k : Plugins.KNOWN) {
            // The pom copies each known plugin its module built (a module not in this build is skipped).
            if (Files.exists(Path.of("..", k.module(), "target", k.jar()))) {
                expected.add(k.jar());
            }
        }
        assertThat(expected).contains("sluice-parquet-plugin.jar", "sluice-otlp-plugin.jar");
        try (var files = Files.list(folder)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrderElementsOf(expected);
        }
        try (JarFile jar = new JarFile(CLI_JAR.toFile())) {
            assertThat(jar.stream().map(ZipEntry::getName)).noneMatch(e -> e.startsWith("org/apache/parquet/")
                    || e.startsWith("io/sluice/parquet/") || e.startsWith("software/amazon/awssdk/")
                    || e.startsWith("io/sluice/s3/"));
            // Nor the OTLP export's libraries: they are in sluice-otlp-plugin.jar.
            assertThat(jar.stream().map(ZipEntry::getName)).noneMatch(e -> e.startsWith("io/sluice/otlp/")
                    || e.startsWith("io/micrometer/registry/otlp/") || e.startsWith("io/opentelemetry/proto/")
                    || e.startsWith("com/google/protobuf/"));
        }
    }

    @Test
    void theDeltaAndIcebergPluginsEachUseTheirOwnHadoopAndParquetBesideTheOthers() throws Exception {
        // Every built plugin is beside the jar: each table format writes and reads back through its own class loader
        // (one Hadoop and parquet-java copy each; a shared loader made the other's classes "not a subtype").
        for (String format : List.of("iceberg", "delta")) {
            Path table = tmp.resolve(format);
            String written = sluice("run", "--source", "rate-micro-batch", "--source-option", "rowsPerBatch=5",
                    "--sink", format, "--sink-option", "path=" + table, "--checkpoint",
                    tmp.resolve(format + "-w").toString(), "--trigger", "availableNow", "--plain");
            assertThat(written).as(format).endsWith("finished: 1 batch, 5 rows\n");
            String read = sluice("run", "--source", format, "--source-option", "path=" + table, "--sink", "noop",
                    "--checkpoint", tmp.resolve(format + "-r").toString(), "--trigger", "availableNow", "--plain");
            assertThat(read).as(format).endsWith("finished: 1 batch, 5 rows\n");
        }
    }

    @Test
    void runWritesAndReadsParquetWithoutPluginsFlag() throws Exception {
        Path out = tmp.resolve("out");
        String written = sluice("run", "--source", "rate-micro-batch", "--source-option", "rowsPerBatch=7",
                "--source-option", "startTimestamp=0", "--sink", "parquet", "--sink-option", "path=" + out,
                "--checkpoint", tmp.resolve("chk").toString(), "--trigger", "availableNow", "--plain");
        assertThat(written).endsWith("finished: 1 batch, 7 rows\n");
        String read = sluice("run", "--source", "parquet", "--source-option", "path=" + out, "--schema",
                "timestamp timestamp, value long", "--sink", "noop", "--checkpoint", tmp.resolve("chk2").toString(),
                "--trigger", "availableNow", "--plain");
        assertThat(read).endsWith("finished: 1 batch, 7 rows\n");
    }

    @Test
    void aCliJarWithoutItsPluginsFolderSaysWhichJarToAdd() throws Exception {
        Path alone = Files.createDirectories(tmp.resolve("alone")).resolve("sluice.jar");
        Files.copy(CLI_JAR, alone);
        ProcessBuilder pb = new ProcessBuilder(java(), "-jar", alone.toString(), "run", "--source",
                "rate-micro-batch", "--source-option", "rowsPerBatch=1", "--sink", "parquet", "--sink-option",
                "path=" + tmp.resolve("o"), "--checkpoint",
                tmp.resolve("c").toString(), "--trigger", "availableNow")
                .redirectOutput(tmp.resolve("out.txt").toFile()).redirectError(tmp.resolve("err.txt").toFile());
        pb.environment().remove("SLUICE_PLUGINS");
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.readString(tmp.resolve("err.txt"))).isEqualTo("sluice: The sink format 'parquet' is in "
                + "the plugin sluice-parquet-plugin.jar, which is not in " + alone.resolveSibling("plugins")
                + " nor in the --plugins folder: build it with `mvn -pl sluice-parquet -am package -DskipTests` "
                + "(bin/sluice builds it with the CLI) and put sluice-parquet/target/sluice-parquet-plugin.jar in "
                + alone.resolveSibling("plugins") + " or in the folder given to --plugins\n");
        assertThat(p.exitValue()).isEqualTo(1);
    }

    /** {@code java -jar sluice.jar ARGS}: its stdout, once it exited 0. */
    private String sluice(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(java(), "-jar", CLI_JAR.toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(tmp, "out", ".txt");
        Path err = Files.createTempFile(tmp, "err", ".txt");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(err)).isZero();
        return Files.readString(out);
    }

    private static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }
}
