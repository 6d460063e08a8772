package io.sluice.spark;

import io.sluice.kafka.broker.SharedLocalKafkaBroker;
import io.sluice.spark.jars.JarsProbe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The jars a user puts on Spark's classpath, as {@code mvn package} builds them (run after package, by the
 * surefire execution {@code packaged-jars}): each read runs in a JVM of its own whose classpath is Spark's
 * (spark-sql_2.13 and its dependencies, target/spark-classpath.txt) and nothing of Sluice, so a class or service
 * file a jar lacks fails the read. The application is {@link JarsProbe}, which knows only Spark.
 */
class JarsIT {
    private static final Path TARGET = Path.of(System.getProperty("sluice.spark.target", "target"));
    private static final Path BRIDGE = TARGET.resolve("sluice-spark-bridge.jar");
    private static final Path FILES = TARGET.resolve("sluice-spark-files.jar");
    private static final Path KAFKA = TARGET.resolve("sluice-spark-kafka.jar");

    @TempDir
    Path dir;

    @Test
    void sparkSubmitWithTheBridgeAndConnectorJarsReadsEverySource() throws Exception {
        Path json = Files.createDirectories(dir.resolve("json"));
        Files.writeString(json.resolve("a.json"), "{\"n\":1,\"s\":\"a\"}\n{\"n\":2,\"s\":\"b\"}\n");
        String topic = SparkBridgeTest.kafkaTopic();
        String bootstrap = SharedLocalKafkaBroker.get().bootstrapServers();

        // spark-submit's own entry point, as the spark-submit script calls it: --jars puts them on the driver's
        // and the executors' classpaths.
        List<String> out = run(sparkClasspath(), "org.apache.spark.deploy.SparkSubmit", "--master", "local[2]",
                "--jars", BRIDGE + "," + FILES + "," + KAFKA, "--class", JarsProbe.class.getName(),
                probeJar().toString(), "rate-micro-batch", "json=" + json, "kafka=" + bootstrap + "|" + topic);

        assertThat(out).containsExactly("PROBE rate-micro-batch: [[0], [1], [2]]",
                "PROBE json: [[1,a], [2,b]]",
                "PROBE kafka: [[v0], [v10], [v11], [v1], [v2], [v3], [v4], [v5], [v6], [v7], [v8], [v9]]");
    }

    @Test
    void aPlainApplicationWithTheBridgeOnItsClasspathReadsTheBuiltInSourcesAndNamesAMissingConnectorsJar()
            throws Exception {
        String classpath = sparkClasspath() + java.io.File.pathSeparator + BRIDGE + java.io.File.pathSeparator
                + probeClasses();
        List<String> out = run(classpath, JarsProbe.class.getName(), "rate-micro-batch",
                "kafka=localhost:9|t");

        assertThat(out).containsExactly("PROBE rate-micro-batch: [[0], [1], [2]]",
                "PROBE kafka failed: java.lang.IllegalArgumentException: Unknown Sluice source 'kafka'. It is in "
                        + "the connector jar sluice-spark-kafka.jar: add it to Spark's classpath, on the driver and "
                        + "the executors (spark-submit --jars sluice-spark-bridge.jar,sluice-spark-kafka.jar). "
                        + "Available: rate, rate-micro-batch. A Sluice source is found when its SourceProvider is "
                        + "listed in META-INF/services/io.sluice.api.source.SourceProvider (or its DataSource in "
                        + "META-INF/services/io.sluice.api.datasource.DataSource) of a jar on Spark's classpath "
                        + "(driver and executors), or given by its class name");
    }

    @Test
    void eachJarCarriesItsPartAndNothingSparkProvides() throws IOException {
        assertThat(entries(BRIDGE)).contains("io/sluice/spark/SluiceSparkSource.class",
                "io/sluice/spark/BuiltInSources$Kafka.class", "io/sluice/api/source/SourceProvider.class",
                "io/sluice/core/sources/RateSourceProvider.class",
                "META-INF/services/org.apache.spark.sql.sources.DataSourceRegister",
                "META-INF/services/io.sluice.api.source.SourceProvider")
                .noneMatch(e -> e.startsWith("io/sluice/files/") || e.startsWith("io/sluice/kafka/"));
        assertThat(entries(FILES)).contains("io/sluice/files/source/JsonFileSourceProvider.class",
                "META-INF/services/io.sluice.api.source.SourceProvider")
                .allMatch(e -> e.startsWith("io/sluice/files/") || e.startsWith("META-INF/"));
        List<String> kafka = entries(KAFKA);
        assertThat(kafka).contains("io/sluice/kafka/KafkaSourceProvider.class",
                "io/sluice/shaded/org/apache/kafka/clients/consumer/KafkaConsumer.class",
                "META-INF/services/io.sluice.api.source.SourceProvider")
                .allMatch(e -> e.startsWith("io/sluice/kafka/") || e.startsWith("io/sluice/shaded/org/apache/kafka/")
                        || e.startsWith("META-INF/") || e.startsWith("kafka/") || e.equals("LICENSE")
                        || e.equals("NOTICE"));
        for (Path jar : List.of(BRIDGE, FILES, KAFKA)) {
            assertThat(entries(jar)).as("%s", jar).noneMatch(e -> e.startsWith("com/fasterxml/")
                    || e.startsWith("org/slf4j/") || e.startsWith("scala/") || e.startsWith("org/apache/spark/")
                    || e.startsWith("org/apache/kafka/") || e.startsWith("com/github/luben/")
                    || e.startsWith("net/jpountz/") || e.startsWith("org/xerial/"));
        }
    }

    // ------------------------------------------------------------------ helpers

    /** The jar's files (its folders left out). */
    private static List<String> entries(Path jar) throws IOException {
        try (JarFile f = new JarFile(jar.toFile())) {
            return f.stream().filter(e -> !e.isDirectory()).map(JarEntry::getName).collect(Collectors.toList());
        }
    }

    private static String sparkClasspath() throws IOException {
        return Files.readString(TARGET.resolve("spark-classpath.txt")).trim();
    }

    /** The probe's compiled class alone (the test classes hold sources that need Sluice). */
    private Path probeClasses() throws IOException, URISyntaxException {
        Path classes = dir.resolve("probe-classes");
        String file = JarsProbe.class.getName().replace('.', '/') + ".class";
        Path to = classes.resolve(file);
        Files.createDirectories(to.getParent());
        Files.copy(Path.of(JarsProbe.class.getResource("/" + file).toURI()), to);
        return classes;
    }

    /** The application jar spark-submit needs, holding the probe alone. */
    private Path probeJar() throws IOException, URISyntaxException {
        Path jar = dir.resolve("probe.jar");
        String file = JarsProbe.class.getName().replace('.', '/') + ".class";
        try (OutputStream o = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(o)) {
            j.putNextEntry(new JarEntry(file));
            j.write(Files.readAllBytes(probeClasses().resolve(file)));
            j.closeEntry();
        }
        return jar;
    }

    /** Runs a JVM with Spark's flags for Java 17 and returns its PROBE lines (its log goes to a file). */
    private List<String> run(String classpath, String main, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(Arrays.asList(System.getProperty("spark.jvm.opens", "").trim().split("\\s+")));
        command.addAll(List.of("-Xmx512m", "-cp", classpath, main));
        command.addAll(Arrays.asList(args));
        Path stdout = Files.createTempFile(dir, "probe-", ".out");
        Path stderr = Files.createTempFile(dir, "probe-", ".err");
        Process p = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile())
                .start();
        try {
            assertThat(p.waitFor(300, TimeUnit.SECONDS)).as("the probe ends").isTrue();
        } finally {
            p.destroyForcibly();
        }
        String log = Files.readString(stderr, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("exit code; log:%n%s", log).isZero();
        return Files.readAllLines(stdout, StandardCharsets.UTF_8).stream().filter(l -> l.startsWith("PROBE "))
                .collect(Collectors.toList());
    }
}
