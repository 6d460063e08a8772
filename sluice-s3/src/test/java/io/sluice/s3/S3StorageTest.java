package io.sluice.s3;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.api.io.StoredObject;
import io.sluice.api.io.VersionChangedException;
import io.sluice.api.io.WholeObjectOutput;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link S3Storage} against the real S3-compatible server (S3Mock), one per test JVM. */
class S3StorageTest {

    private static String bucket;
    private static Storage s;

    @BeforeAll
    static void setUp() throws IOException {
        bucket = S3TestSupport.newBucket("storage");
        s = Storages.of("s3a://" + bucket + "/", S3TestSupport.conf());
    }

    @AfterAll
    static void tearDown() throws IOException {
        s.close();
    }

    private static byte[] b(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String uri(String key) {
        return "s3a://" + bucket + "/" + key;
    }

    @Test
    void foundThroughServiceLoaderForBothSchemes() throws IOException {
        assertThat(s).isInstanceOf(S3Storage.class);
        try (Storage s3 = Storages.of("s3://" + bucket + "/x", S3TestSupport.conf())) {
            assertThat(s3.createExclusive("s3://" + bucket + "/schemes/a", b("one"))).isTrue();
        }
        // s3:// and s3a:// name the same object.
        assertThat(s.readAll(uri("schemes/a"), 10)).isEqualTo(b("one"));
        assertThat(s.status(uri("schemes/a")).orElseThrow().uri()).isEqualTo(uri("schemes/a"));
    }

    @Test
    void createExclusiveFirstWriterWinsAndReplaceIfVersionIsACompareAndSet() throws IOException {
        assertThat(s.createExclusive(uri("cas/0"), b("one"))).isTrue();
        assertThat(s.createExclusive(uri("cas/0"), b("two"))).isFalse();
        assertThat(s.readAll(uri("cas/0"), 10)).isEqualTo(b("one"));
        String tag = s.status(uri("cas/0")).orElseThrow().versionTag();
        assertThat(s.replaceIfVersion(uri("cas/0"), b("three"), "\"wrong\"")).isEmpty();
        Optional<String> next = s.replaceIfVersion(uri("cas/0"), b("four"), tag);
        assertThat(next).isPresent().get().isNotEqualTo(tag);
        assertThat(s.readAll(uri("cas/0"), 10)).isEqualTo(b("four"));
        assertThat(s.replaceIfVersion(uri("cas/0"), b("five"), tag)).isEmpty();
        assertThat(s.probeConditionalWrites(uri("probe/"))).isEmpty();
        assertThat(s.list(uri("probe/"))).isEmpty();
    }

    @Test
    void listsPagesInKeyOrderAfterStartAfterWithoutDirectoryMarkers() throws IOException {
        try (S3Client c = S3TestSupport.client()) {
            IntStream.range(0, 25).parallel().forEach(i -> c.putObject(p -> p.bucket(bucket)
                    .key(String.format("many/%05d.json", i)), RequestBody.fromString("{}")));
            c.putObject(p -> p.bucket(bucket).key("many/dir/"), RequestBody.empty());
        }
        Map<String, String> smallPages = S3TestSupport.conf();
        smallPages.put(S3Options.PAGING_MAXIMUM, "10");
        List<StoredObject> all;
        try (S3Storage paged = (S3Storage) Storages.of(uri("many/"), smallPages)) {
            all = paged.list(uri("many/"));
            assertThat(paged.listRequests()).isEqualTo(3); // 26 keys, the marker included, 10 a page
            assertThat(paged.keysListed()).isEqualTo(26);
            List<String> afterPaged = new ArrayList<>();
            paged.list(uri("many/"), uri("many/00008.json"), o -> afterPaged.add(o.name()));
            assertThat(afterPaged).hasSize(16).startsWith("00009.json", "00010.json").endsWith("00024.json");
            assertThat(paged.listRequests()).isEqualTo(5); // 17 keys after 00008.json: 2 pages of 10
        }
        assertThat(all).extracting(StoredObject::name).isSorted().doesNotHaveDuplicates();
        S3Storage raw = (S3Storage) s;
        long before = raw.listRequests();
        assertThat(s.list(uri("many/"))).isEqualTo(all);
        assertThat(raw.listRequests() - before).isEqualTo(1); // fs.s3a.paging.maximum's default: 5,000 asked
        assertThat(all).hasSize(25);
        assertThat(all.get(0).uri()).isEqualTo(uri("many/00000.json"));
        assertThat(all.get(24).uri()).isEqualTo(uri("many/00024.json"));
        assertThat(all).extracting(StoredObject::size).containsOnly(2L);
        assertThat(all).noneMatch(o -> o.uri().endsWith("/"));
        List<String> after = new ArrayList<>();
        s.list(uri("many/"), uri("many/00021.json"), o -> after.add(o.name()));
        assertThat(after).containsExactly("00022.json", "00023.json", "00024.json"); // not the marker many/dir/
        List<String> stopped = new ArrayList<>();
        s.list(uri("many/"), null, o -> stopped.add(o.name()) && stopped.size() < 3);
        assertThat(stopped).hasSize(3);
        assertThat(s.list(uri("nothing-here/"))).isEmpty();
        assertThat(s.status(uri("many/dir/"))).isEmpty();
        assertThat(s.status(uri("many"))).isEmpty();
    }

    /** Keys with every character the listing's XML escapes or encodes, some of them more than one byte long. */
    static final List<String> ODD_KEYS = List.of("odd/a&b", "odd/<lt>", "odd/>gt", "odd/q\"uote", "odd/it's",
            "odd/with space", "odd/plus+sign", "odd/100%", "odd/%41%2B", "odd/&amp;", "odd/café", "odd/emoji-😀",
            "odd/中文", "odd/dir/", "odd/x=y;z,@!*()~[]{}^`|$#", "odd/ trailing ");

    @Test
    void listsKeysWithEscapedCharactersExactlyAsTheSdksOwnListingDoes() throws IOException {
        List<StoredObject> expected = new ArrayList<>();
        try (S3Client c = S3TestSupport.client()) {
            for (String key : ODD_KEYS) {
                c.putObject(p -> p.bucket(bucket).key(key), RequestBody.fromString(key));
            }
            // The SDK's own unmarshalling of the same listing, in one page.
            for (var o : c.listObjectsV2(l -> l.bucket(bucket).prefix("odd/")).contents()) {
                if (!o.key().endsWith("/")) {
                    expected.add(new StoredObject(uri(o.key()), o.size(), o.lastModified().toEpochMilli(), o.eTag()));
                }
            }
        }
        assertThat(expected).extracting(StoredObject::uri).containsExactlyInAnyOrderElementsOf(ODD_KEYS.stream()
                .filter(k -> !k.endsWith("/")).map(S3StorageTest::uri).toList());
        assertThat(s.list(uri("odd/"))).isEqualTo(expected);
        Map<String, String> smallPages = S3TestSupport.conf();
        smallPages.put(S3Options.PAGING_MAXIMUM, "3"); // continuation tokens after odd keys too
        try (S3Storage paged = (S3Storage) Storages.of(uri("odd/"), smallPages)) {
            assertThat(paged.list(uri("odd/"))).isEqualTo(expected);
            assertThat(paged.listRequests()).isEqualTo(6); // 16 keys, the marker included, 3 a page
            assertThat(paged.keysListed()).isEqualTo(16);
            assertThat(paged.pagesScanned()).isEqualTo(6); // all read by S3ListingParser, none by the SDK
            List<StoredObject> after = new ArrayList<>();
            paged.list(uri("odd/"), expected.get(4).uri(), after::add);
            assertThat(after).isEqualTo(expected.subList(5, expected.size()));
        }
        for (StoredObject o : expected) {
            assertThat(s.status(o.uri())).contains(o);
            assertThat(o.size()).isEqualTo(o.uri().substring(("s3a://" + bucket + "/").length())
                    .getBytes(StandardCharsets.UTF_8).length);
        }
    }

    @Test
    void anyUnderAsksForPagesOfTenKeysAndLooksPastDirectoryMarkers() throws IOException {
        try (S3Client c = S3TestSupport.client()) {
            for (int i = 0; i < 12; i++) { // markers only, more than a page of them
                String key = "anyunder/markers/m" + (10 + i) + "/";
                c.putObject(p -> p.bucket(bucket).key(key), RequestBody.empty());
            }
            c.putObject(p -> p.bucket(bucket).key("anyunder/markers/z.json"), RequestBody.fromString("{}"));
            c.putObject(p -> p.bucket(bucket).key("anyunder/only-markers/a/"), RequestBody.empty());
            for (int i = 0; i < 30; i++) {
                String key = String.format("anyunder/full/%03d.json", i);
                c.putObject(p -> p.bucket(bucket).key(key), RequestBody.fromString("{}"));
            }
        }
        S3Storage raw = (S3Storage) s;
        long requests = raw.listRequests();
        long keys = raw.keysListed();
        assertThat(s.anyUnder(uri("anyunder/full/"))).isTrue();
        // One request of ten keys, where a listing asks for fs.s3a.paging.maximum (5,000) and gets every key here.
        assertThat(raw.listRequests() - requests).isEqualTo(1);
        assertThat(raw.keysListed() - keys).isEqualTo(10);
        assertThat(s.anyUnder(uri("anyunder/markers/"))).isTrue(); // past the 12 markers: a second page
        assertThat(raw.listRequests() - requests).isEqualTo(3);
        assertThat(s.anyUnder(uri("anyunder/only-markers/"))).isFalse();
        assertThat(s.anyUnder(uri("anyunder/nothing/"))).isFalse();
    }

    @Test
    void readsArePinnedToTheVersionSeenAndRangesWork() throws IOException {
        assertThat(s.createExclusive(uri("pin/a"), b("0123456789"))).isTrue();
        StoredObject seen = s.status(uri("pin/a")).orElseThrow();
        assertThat(seen.size()).isEqualTo(10);
        try (InputStream in = s.open(uri("pin/a"), 2, 3, seen.versionTag())) {
            assertThat(in.readAllBytes()).isEqualTo(b("234"));
        }
        try (InputStream in = s.open(uri("pin/a"), 20, 3, seen.versionTag())) {
            assertThat(in.readAllBytes()).isEmpty();
        }
        assertThat(s.replaceIfVersion(uri("pin/a"), b("overwritten"), seen.versionTag())).isPresent();
        assertThatThrownBy(() -> s.open(uri("pin/a"), seen.versionTag()))
                .isInstanceOf(VersionChangedException.class)
                .hasMessageContaining(uri("pin/a") + " was modified after it was listed");
        assertThatThrownBy(() -> s.open(uri("pin/missing"), null)).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void outputIsVisibleOnlyAtCloseSinglePutOrMultipart() throws IOException {
        WholeObjectOutput small = s.create(uri("out/small"), false);
        small.write(b("hello"));
        assertThat(s.status(uri("out/small"))).isEmpty();
        small.close();
        assertThat(s.readAll(uri("out/small"), 10)).isEqualTo(b("hello"));

        byte[] big = new byte[S3Storage.PART_SIZE * 2 + 1000];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) (i % 251);
        }
        WholeObjectOutput multi = s.create(uri("out/big"), false);
        multi.write(big);
        assertThat(s.status(uri("out/big"))).isEmpty(); // parts uploaded, nothing visible
        multi.close();
        assertThat(s.readAll(uri("out/big"), big.length)).isEqualTo(big);

        WholeObjectOutput again = s.create(uri("out/small"), false);
        again.write(b("other"));
        assertThatThrownBy(again::close).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(s.readAll(uri("out/small"), 10)).isEqualTo(b("hello"));

        WholeObjectOutput replace = s.create(uri("out/small"), true);
        replace.write(b("replaced"));
        replace.close();
        assertThat(s.readAll(uri("out/small"), 10)).isEqualTo(b("replaced"));

        WholeObjectOutput aborted = s.create(uri("out/aborted"), false);
        aborted.write(big);
        aborted.abort();
        aborted.close();
        assertThat(s.status(uri("out/aborted"))).isEmpty();
    }

    @Test
    void copyThenDelete() throws IOException {
        assertThat(s.createExclusive(uri("cp/a"), b("x"))).isTrue();
        s.copy(uri("cp/a"), uri("cp/b"));
        assertThat(s.readAll(uri("cp/b"), 10)).isEqualTo(b("x"));
        assertThat(s.delete(uri("cp/a"))).isTrue();
        assertThat(s.delete(uri("cp/a"))).isFalse();
        assertThat(s.status(uri("cp/a"))).isEmpty();
        assertThatThrownBy(() -> s.copy(uri("cp/a"), uri("cp/c"))).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void aMissingBucketNamesItAndTheCredentialsSourceWithoutTheSecret() {
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> s.list("s3a://no-such-bucket-sluice/x/"))
                .isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("the bucket 'no-such-bucket-sluice' does not exist")
                .hasMessageContaining("credentials from fs.s3a.access.key (...-key) and fs.s3a.secret.key")
                .hasMessageNotContaining("test-secret-do-not-show");
        assertThatThrownBy(() -> s.status("s3a://no-such-bucket-sluice/x.json"))
                .hasMessageContaining("the bucket 'no-such-bucket-sluice' does not exist");
        assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(5000);
    }

    @Test
    void anUnreachableEndpointFailsWithinSeconds() throws IOException {
        int closedPort;
        try (ServerSocket ss = new ServerSocket(0)) {
            closedPort = ss.getLocalPort();
        }
        Map<String, String> conf = S3TestSupport.conf("http://localhost:" + closedPort);
        conf.remove(S3Options.ACCESS_KEY);
        conf.remove(S3Options.SECRET_KEY);
        conf.put(S3Options.ACCESS_KEY, "AKIAEXAMPLE1234");
        conf.put(S3Options.SECRET_KEY, "s3cr3t");
        conf.put(S3Options.ATTEMPTS, "3");
        try (Storage down = Storages.of("s3a://lake/", conf)) {
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> down.list("s3a://lake/events/"))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("the S3 endpoint of the bucket 'lake' cannot be reached after 3 attempts")
                    .hasMessageContaining("endpoint http://localhost:" + closedPort)
                    .hasMessageContaining("fs.s3a.access.key (...1234)")
                    .hasMessageNotContaining("s3cr3t");
            assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(10_000);
        }
    }

    @Test
    void noCredentialsAnywhereSaysSoNotUnreachable() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv("AWS_ACCESS_KEY_ID") == null
                && System.getProperty("aws.accessKeyId") == null
                && !java.nio.file.Files.exists(java.nio.file.Path.of(System.getProperty("user.home"), ".aws")),
                "AWS credentials are configured on this machine");
        Map<String, String> conf = S3TestSupport.conf();
        conf.remove(S3Options.ACCESS_KEY);
        conf.remove(S3Options.SECRET_KEY);
        try (Storage none = Storages.of("s3a://" + bucket + "/", conf)) {
            assertThatThrownBy(() -> none.list(uri("x/")))
                    .isInstanceOf(AccessDeniedException.class)
                    .hasMessageContaining("no credentials for the bucket '" + bucket + "': set fs.s3a.access.key")
                    .hasMessageContaining("credentials from the AWS SDK's default credential chain");
        }
    }

    @Test
    void wrongCredentialsAreNamedAsSuch() throws IOException {
        try (FaultProxy proxy = new FaultProxy(S3TestSupport.server().port());
             Storage viaProxy = Storages.of("s3a://" + bucket + "/", S3TestSupport.conf(proxy.endpoint()))) {
            // S3Mock checks no signature: AWS's answer to a wrong key is injected in front of it.
            proxy.failNext(1, 403, "Forbidden", "InvalidAccessKeyId");
            assertThatThrownBy(() -> viaProxy.list(uri("x/")))
                    .isInstanceOf(AccessDeniedException.class)
                    .hasMessageContaining("access to the bucket '" + bucket + "' denied (403 InvalidAccessKeyId)")
                    .hasMessageContaining("credentials from fs.s3a.access.key (...-key) and fs.s3a.secret.key")
                    .hasMessageNotContaining("test-secret-do-not-show");
        }
    }

    @Test
    void transient503sAndDroppedConnectionsAreRetriedWithoutLoss() throws IOException {
        byte[] data = new byte[300_000];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 31);
        }
        assertThat(s.createExclusive(uri("flaky/a"), data)).isTrue();
        try (FaultProxy proxy = new FaultProxy(S3TestSupport.server().port());
             Storage viaProxy = Storages.of("s3a://" + bucket + "/", S3TestSupport.conf(proxy.endpoint()))) {
            proxy.failNext(2, 503, "Slow Down", "SlowDown");
            assertThat(viaProxy.list(uri("flaky/"))).extracting(StoredObject::name).containsExactly("a");
            String tag = viaProxy.status(uri("flaky/a")).orElseThrow().versionTag();
            proxy.cutNext(2, 50_000); // the body is cut mid-way, twice: the read resumes from where it was
            try (InputStream in = viaProxy.open(uri("flaky/a"), tag)) {
                assertThat(in.readAllBytes()).isEqualTo(data);
            }
            proxy.failNext(2, 503, "Slow Down", "SlowDown");
            assertThat(viaProxy.createExclusive(uri("flaky/b"), b("b"))).isTrue();
            assertThat(s.readAll(uri("flaky/b"), 10)).isEqualTo(b("b"));
        }
    }

    @Test
    void invalidSettingsAreRefusedNamingTheOption() {
        Map<String, String> conf = S3TestSupport.conf();
        conf.remove("fs.s3a.path.style.access");   // it would win over the prefixed key
        conf.put("spark.hadoop.fs.s3a.path.style.access", "yes");
        assertThatThrownBy(() -> Storages.of("s3a://b/", conf)).isInstanceOf(InvalidOptionException.class)
                .hasMessageContaining("fs.s3a.path.style.access").hasMessageContaining("true or false");
        Map<String, String> paging = new java.util.HashMap<>(Map.of(
                "0", "an integer of at least 1", "-5", "an integer of at least 1", "lots", "an integer",
                "1.5", "an integer"));
        paging.forEach((bad, accepted) -> {
            Map<String, String> c = S3TestSupport.conf();
            c.put("spark.hadoop.fs.s3a.paging.maximum", bad);
            assertThatThrownBy(() -> Storages.of("s3a://b/", c)).isInstanceOf(InvalidOptionException.class)
                    .hasMessage("Invalid value '" + bad + "' for option 'fs.s3a.paging.maximum': " + accepted);
        });
        Map<String, String> perBucketPaging = S3TestSupport.conf();
        perBucketPaging.put("fs.s3a.bucket.big.paging.maximum", "1000");
        assertThat(S3Options.resolve("big", perBucketPaging).pagingMaximum()).isEqualTo(1000);
        assertThat(S3Options.resolve("other", perBucketPaging).pagingMaximum()).isEqualTo(5000);
        Map<String, String> perBucket = S3TestSupport.conf();
        perBucket.put("fs.s3a.bucket.other.endpoint", "http://other:1234");
        assertThat(S3Options.resolve("other", perBucket).endpointText()).isEqualTo("http://other:1234");
        assertThat(S3Options.resolve("mine", perBucket).endpointText()).isEqualTo(S3TestSupport.server().endpoint());
        assertThat(S3Options.resolve("b", Map.of(S3Options.ENDPOINT, "minio.local:9000",
                S3Options.SSL, "false")).endpointText()).isEqualTo("http://minio.local:9000");
        assertThat(S3Options.resolve("b", S3TestSupport.conf()).toString()).doesNotContain("test-secret-do-not-show");
        assertThatThrownBy(() -> S3Uri.parse("s3a:///x")).hasMessageContaining("No bucket in s3a:///x");
    }

    @Test
    void aKeyGivenWithAndWithoutTheSparkHadoopPrefixResolvesToTheOneWithoutInEitherOrder() {
        for (boolean prefixedFirst : new boolean[] {true, false}) {
            Map<String, String> conf = new java.util.LinkedHashMap<>();
            if (prefixedFirst) {
                conf.put("spark.hadoop.fs.s3a.endpoint", "http://prefixed:1");
            }
            conf.put("fs.s3a.endpoint", "http://plain:2");
            if (!prefixedFirst) {
                conf.put("spark.hadoop.fs.s3a.endpoint", "http://prefixed:1");
            }
            assertThat(S3Options.resolve("b", conf).endpointText()).isEqualTo("http://plain:2");
            assertThat(Storages.conf(conf, Map.of())).containsEntry("fs.s3a.endpoint", "http://plain:2");
        }
        assertThat(S3Options.resolve("b", Map.of("spark.hadoop.fs.s3a.endpoint", "http://prefixed:1"))
                .endpointText()).isEqualTo("http://prefixed:1");
    }
}
