package io.sluice.s3;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * One real Ceph cluster with its S3 gateway (RGW) per test JVM, as {@link io.sluice.s3.server.SharedLocalS3Server}
 * is for S3Mock: started on the first {@link #endpoint()} by the benchmarks' {@code bench/ceph-rgw.sh} over a fresh
 * temporary folder, on free ports (so a cluster on the defaults, the benchmarks', keeps working beside it), and
 * stopped with the folder removed when the JVM exits. Tests sharing it must use their own bucket names.
 */
final class SharedCephRgw {

    /** The user bench/ceph-rgw.sh creates; RGW checks signatures, unlike S3Mock. */
    static final String ACCESS_KEY = "bench";
    static final String SECRET_KEY = "bench-secret";

    /** What bench/ceph-rgw.sh runs (Debian's ceph-mon, ceph-osd, radosgw, ceph-common and uuid-runtime, and curl). */
    private static final List<String> TOOLS = List.of("ceph-mon", "ceph-osd", "radosgw", "radosgw-admin", "ceph",
            "monmaptool", "uuidgen", "curl");
    /** Where the tools are looked for: PATH, or a test's override to check the message when they are missing. */
    private static final String SEARCH_PATH = System.getProperty("sluice.ceph.path", System.getenv("PATH"));

    private static String endpoint;

    private SharedCephRgw() {
    }

    /**
     * Null when every tool the script runs is on the PATH; otherwise the reason the Ceph tests are skipped with, or
     * a failure when the environment variable CI is "true": .ci/run installs Ceph, so a missing tool there is a
     * broken CI, which a skip would hide. Checked before the script runs because the script would install them
     * with apt-get, which a test must not do.
     */
    static String missingCeph() {
        List<String> missing = new ArrayList<>();
        for (String tool : TOOLS) {
            if (Stream.of((SEARCH_PATH == null ? "" : SEARCH_PATH).split(File.pathSeparator))
                    .noneMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, tool)))) {
                missing.add(tool);
            }
        }
        if (missing.isEmpty()) {
            return null;
        }
        String what = "CephRgwTest needs a Ceph cluster with its S3 gateway (Debian's ceph-mon ceph-osd radosgw "
                + "ceph-common uuid-runtime curl; .ci/run installs them); not on the PATH: "
                + String.join(", ", missing);
        if ("true".equals(System.getenv("CI"))) {
            fail(what + ". CI=true: the Ceph tests must run on CI, so this fails instead of skipping");
        }
        return what + ": the tests on Ceph RGW are skipped (CI=true makes this a failure)";
    }

    /** The running gateway's endpoint, {@code http://127.0.0.1:PORT}, started on the first call (thread-safe). */
    static synchronized String endpoint() {
        if (endpoint == null) {
            endpoint = start();
        }
        return endpoint;
    }

    /** Path-style access with the gateway's user, as {@link S3TestSupport#conf(String)} gives for S3Mock. */
    static Map<String, String> conf() {
        Map<String, String> c = S3TestSupport.conf(endpoint());
        c.put(S3Options.ACCESS_KEY, ACCESS_KEY);
        c.put(S3Options.SECRET_KEY, SECRET_KEY);
        return c;
    }

    static S3Client client() {
        return S3Client.builder().endpointOverride(URI.create(endpoint())).forcePathStyle(true)
                .region(Region.US_EAST_1)
                // As S3Storage: Ceph 16 answers 400 to the SDK's default trailing checksums on uploads.
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    /** A new bucket on the gateway with a unique name (S3's rules: at most 63 characters, lower case). */
    static String newBucket(String hint) {
        String name = (hint + "-" + UUID.randomUUID()).toLowerCase().substring(0, Math.min(60, hint.length() + 37));
        try (S3Client c = client()) {
            c.createBucket(b -> b.bucket(name));
        }
        return name;
    }

    private static String start() {
        Path script = script();
        try {
            // Under java.io.tmpdir rather than target/: the daemons' admin sockets live in it, and a Unix socket's
            // path is at most 107 bytes, which a deep checkout's target/ could exceed.
            Path dir = Files.createTempDirectory("sluice-ceph-");
            Path out = Files.createTempFile("sluice-ceph-", ".out");
            int[] ports = freePorts(2);
            ProcessBuilder pb = new ProcessBuilder("bash", script.toString(), "start", dir.toString())
                    .redirectErrorStream(true).redirectOutput(out.toFile());
            // A file, not a pipe: the daemons fork into the background and could keep a pipe open after the script.
            pb.environment().put("MON_PORT", Integer.toString(ports[0]));
            pb.environment().put("RGW_PORT", Integer.toString(ports[1]));
            Process p = pb.start();
            // Registered before the wait: a start that fails half-way leaves daemons that the stop ends.
            Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(script, dir, out), "sluice-ceph-shutdown"));
            if (!p.waitFor(3, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException(script + " start " + dir + " did not finish within 3 minutes: "
                        + Files.readString(out));
            }
            String output = Files.readString(out);
            if (p.exitValue() != 0) {
                throw new IllegalStateException(script + " start " + dir + " failed (exit " + p.exitValue() + "): "
                        + output + "; the end of its setup.log: " + tail(dir.resolve("log/setup.log"), 10));
            }
            return output.lines().filter(l -> l.startsWith("endpoint ")).map(l -> l.substring("endpoint ".length()))
                    .findFirst().orElseThrow(() -> new IllegalStateException(
                            script + " start printed no endpoint: " + output));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The last lines of a log, for a failure's message: the folder is gone once the JVM exits. */
    private static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log).stream().filter(l -> !l.isBlank()).toList();
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(" + log + " unreadable: " + e + ")";
        }
    }

    private static void stop(Path script, Path dir, Path out) {
        try {
            Process p = new ProcessBuilder("bash", script.toString(), "stop", dir.toString())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            p.waitFor(1, TimeUnit.MINUTES);
            try (Stream<Path> all = Files.walk(dir)) {
                all.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
            Files.deleteIfExists(out);
        } catch (IOException e) {
            System.err.println("could not stop the Ceph cluster in " + dir + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * bench/ceph-rgw.sh, found from the working directory up. It stays in bench/, its one copy, rather than moving
     * here: bench/run.sh and the benchmarks' documentation name it there, and the tests run from a module folder of
     * the same checkout (surefire's working directory), so walking up finds it from any module at any depth.
     */
    private static Path script() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path s = d.resolve("bench/ceph-rgw.sh");
            if (Files.isRegularFile(s)) {
                return s;
            }
        }
        throw new IllegalStateException("bench/ceph-rgw.sh not found in " + Path.of("").toAbsolutePath()
                + " nor any folder above it");
    }

    /**
     * Ports the system has none listening on, all held open together while they are picked so they differ. They
     * are ephemeral ports (above 32767 on Linux), out of the 6800-7300 the OSD binds to.
     */
    private static int[] freePorts(int n) throws IOException {
        List<ServerSocket> held = new ArrayList<>();
        try {
            int[] ports = new int[n];
            for (int i = 0; i < n; i++) {
                ServerSocket s = new ServerSocket(0);
                held.add(s);
                ports[i] = s.getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
    }
}
