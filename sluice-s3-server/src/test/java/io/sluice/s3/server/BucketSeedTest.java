package io.sluice.s3.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BucketSeedTest {

    @TempDir
    Path dir;

    @Test
    void aSeededBucketIsServedAsIfItsObjectsHadBeenPut() throws Exception {
        Map<String, byte[]> objects = new LinkedHashMap<>();
        objects.put("in/b.json", "{\"b\":2}\n".getBytes(StandardCharsets.UTF_8));
        objects.put("in/a.json", "{\"a\":1}\n".getBytes(StandardCharsets.UTF_8));
        assertThat(BucketSeed.isComplete(dir, "seeded")).isFalse();
        BucketSeed.write(dir, "seeded", objects);
        assertThat(BucketSeed.isComplete(dir, "seeded")).isTrue();
        assertThatThrownBy(() -> BucketSeed.write(dir, "seeded", objects)).isInstanceOf(IllegalStateException.class)
                .hasMessage("The bucket folder " + dir.resolve("seeded") + " exists already: delete it to seed it "
                        + "again");
        HttpClient http = HttpClient.newHttpClient();
        try (LocalS3Server s = LocalS3Server.builder(dir).start()) {
            String list = http.send(HttpRequest.newBuilder(URI.create(s.endpoint() + "/seeded?list-type=2&prefix=in/"))
                    .build(), HttpResponse.BodyHandlers.ofString()).body();
            assertThat(list).contains("<KeyCount>2</KeyCount>");
            assertThat(list.indexOf("<Key>in/a.json</Key>")).isPositive().isLessThan(list.indexOf("<Key>in/b.json"));
            HttpResponse<String> get = http.send(HttpRequest.newBuilder(URI.create(s.endpoint() + "/seeded/in/a.json"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(get.body()).isEqualTo("{\"a\":1}\n");
            // A single PUT's ETag: the content's MD5.
            assertThat(get.headers().firstValue("ETag")).contains("\"" + java.util.HexFormat.of().formatHex(
                    java.security.MessageDigest.getInstance("MD5").digest(objects.get("in/a.json"))) + "\"");
        }
    }
}
