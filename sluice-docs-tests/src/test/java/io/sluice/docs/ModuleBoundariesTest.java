package io.sluice.docs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The module boundaries the build enforces (docs/ARCHITECTURE.md, "Modules"): sluice-api references only the
 * JDK's {@code java.*} and itself; no module but sluice-core references sluice-core's internal packages
 * ({@link ModuleBoundaries#CORE_INTERNAL}). Checked on every module's compiled main classes.
 */
class ModuleBoundariesTest {
    /** sluice-api: the JDK's java.* and its own classes only. */
    private static final Predicate<String> NOT_API_OR_JAVA = ref -> !ref.startsWith("java.")
            && !ref.startsWith("io.sluice.api.");

    @TempDir
    Path tmp;

    /** A module's classes and its own package. */
    private record Module(Path classes, String ownPackage) {
        static Module of(Class<?> c, String ownPackage) {
            return new Module(ModuleBoundaries.locationOf(c), ownPackage);
        }
    }

    /** Every module but sluice-core, found through one of its classes. */
    private static Map<String, Module> modulesButCore() {
        Map<String, Module> m = new LinkedHashMap<>();
        m.put("sluice-api", Module.of(io.sluice.api.Row.class, "io.sluice.api"));
        m.put("sluice-files", Module.of(io.sluice.files.format.FileFormats.class, "io.sluice.files"));
        m.put("sluice-parquet", Module.of(io.sluice.parquet.ParquetFileFormat.class, "io.sluice.parquet"));
        m.put("sluice-avro", Module.of(io.sluice.avro.AvroFileFormat.class, "io.sluice.avro"));
        m.put("sluice-rocksdb", Module.of(io.sluice.rocksdb.RocksDbStateStoreProvider.class, "io.sluice.rocksdb"));
        m.put("sluice-kafka", Module.of(io.sluice.kafka.KafkaSourceProvider.class, "io.sluice.kafka"));
        m.put("sluice-kafka-broker", Module.of(io.sluice.kafka.broker.LocalKafkaBroker.class,
                "io.sluice.kafka.broker"));
        m.put("sluice-cli", Module.of(io.sluice.cli.Main.class, "io.sluice.cli"));
        m.put("sluice-testkit", Module.of(io.sluice.testkit.SourceContract.class, "io.sluice.testkit"));
        m.put("sluice-examples", Module.of(io.sluice.examples.QuickDemo.class, "io.sluice.examples"));
        m.put("sluice-python", Module.of(io.sluice.python.PythonDataSources.class, "io.sluice.python"));
        m.put("sluice-metrics", Module.of(io.sluice.metrics.SluiceMetrics.class, "io.sluice.metrics"));
        m.put("sluice-otlp", Module.of(io.sluice.otlp.SluiceOtlp.class, "io.sluice.otlp"));
        // The Spark bridge is not on this module's class path (Spark's jars are too big for it): its classes when
        // it was built.
        Path spark = ModuleBoundaries.locationOf(io.sluice.core.Sluice.class).resolve("../../../sluice-spark/target"
                + "/classes").normalize();
        if (Files.isDirectory(spark)) {
            m.put("sluice-spark", new Module(spark, "io.sluice.spark"));
        }
        return m;
    }

    @Test
    void theEngineAndTheApiDoNotDependOnMicrometer() {
        // Metrics are sluice-metrics' business: the engine only produces progress objects and listener events.
        Predicate<String> metrics = ModuleBoundaries.inPackages(List.of("io.micrometer", "io.prometheus"));
        Path core = ModuleBoundaries.locationOf(io.sluice.core.Sluice.class);
        assertThat(ModuleBoundaries.violations(core, "io.sluice.core", metrics)).as("sluice-core (%s)", core)
                .isEmpty();
        Path api = ModuleBoundaries.locationOf(io.sluice.api.Row.class);
        assertThat(ModuleBoundaries.violations(api, "io.sluice.api", metrics)).isEmpty();
        // The check sees a reference when there is one.
        Path own = ModuleBoundaries.locationOf(io.sluice.metrics.SluiceMetrics.class);
        assertThat(ModuleBoundaries.violations(own, "io.sluice.metrics", metrics)).isNotEmpty();
    }

    @Test
    void noModuleButCoreReferencesCoresInternalPackages() {
        Predicate<String> internal = ModuleBoundaries.inPackages(ModuleBoundaries.CORE_INTERNAL);
        assertThat(modulesButCore()).containsKeys("sluice-api", "sluice-files", "sluice-kafka", "sluice-cli");
        modulesButCore().forEach((name, module) -> assertThat(ModuleBoundaries.violations(module.classes(),
                module.ownPackage(), internal))
                .as("classes of %s (%s) referencing sluice-core's internal packages %s", name, module.classes(),
                        ModuleBoundaries.CORE_INTERNAL)
                .isEmpty());
    }

    @Test
    void sluiceApiReferencesOnlyTheJdk() {
        Path api = ModuleBoundaries.locationOf(io.sluice.api.Row.class);
        assertThat(ModuleBoundaries.violations(api, "io.sluice.api", NOT_API_OR_JAVA)).as("sluice-api (%s) referencing anything but "
                + "java.* and itself", api).isEmpty();
    }

    @Test
    void theScannerFindsAReferenceInEveryPlaceAClassCanMakeOne() throws Exception {
        Path src = Files.createDirectories(tmp.resolve("src/x"));
        Files.writeString(src.resolve("Clean.java"), """
                package x;
                public class Clean {
                    // Only a string naming the package: not a reference.
                    String name = "io.sluice.core.json.Json io/sluice/core/json/Json Lio/sluice/core/json/Json;";
                    io.sluice.api.Row row;
                }
                """);
        Files.writeString(src.resolve("InField.java"), """
                package x;
                public class InField {
                    java.util.List<io.sluice.core.checkpoint.Checkpoint> checkpoints;
                }
                """);
        Files.writeString(src.resolve("InCode.java"), """
                package x;
                public class InCode {
                    Object nul() {
                        return io.sluice.core.json.Json.NULL;
                    }
                }
                """);
        Files.writeString(src.resolve("InSignature.java"), """
                package x;
                public class InSignature {
                    void parse(io.sluice.core.expr.Expr[] exprs) {
                    }
                }
                """);
        Path out = Files.createDirectories(tmp.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, null, "-classpath", System.getProperty("java.class.path"), "-proc:none",
                "-d", out.toString(), src.resolve("Clean.java").toString(), src.resolve("InField.java").toString(),
                src.resolve("InCode.java").toString(), src.resolve("InSignature.java").toString());
        assertThat(rc).isZero();
        List<String> found = ModuleBoundaries.violations(out, "x", ModuleBoundaries.inPackages(
                ModuleBoundaries.CORE_INTERNAL));
        assertThat(found).containsExactly(
                "x.InCode -> io.sluice.core.json.Json",
                "x.InField -> io.sluice.core.checkpoint.Checkpoint",
                "x.InSignature -> io.sluice.core.expr.Expr");
        // The sluice-api rule: a class naming Jackson or sluice-core is refused, java.* and io.sluice.api are not.
        assertThat(ModuleBoundaries.violations(out, "x", NOT_API_OR_JAVA)).containsExactly(
                "x.Clean -> x.Clean",
                "x.InCode -> io.sluice.core.json.Json",
                "x.InCode -> x.InCode",
                "x.InField -> io.sluice.core.checkpoint.Checkpoint",
                "x.InField -> x.InField",
                "x.InSignature -> io.sluice.core.expr.Expr",
                "x.InSignature -> x.InSignature");
    }

    @Test
    void theScannerSeesSluiceCoresOwnUseOfItsInternalPackages() {
        // sluice-core itself may use them: a check of the scanner on real classes, also read from a jar or folder.
        Path core = ModuleBoundaries.locationOf(io.sluice.core.Sluice.class);
        assertThat(ModuleBoundaries.violations(core, "io.sluice.core",
                ModuleBoundaries.inPackages(ModuleBoundaries.CORE_INTERNAL)))
                .contains("io.sluice.core.ProgressJson -> io.sluice.core.json.Json");
        assertThat(ModuleBoundaries.violations(ModuleBoundaries.locationOf(io.sluice.files.format.FileFormats.class),
                "io.sluice.files", NOT_API_OR_JAVA)).anyMatch(v -> v.endsWith("-> com.fasterxml.jackson.core.JsonParser"));
    }
}
