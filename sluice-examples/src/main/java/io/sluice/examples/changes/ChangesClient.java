package io.sluice.examples.changes;

import io.sluice.core.OffsetJson;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** {@code GET <url>/changes}: what is new since the last call. */
final class ChangesClient {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private ChangesClient() {
    }

    static List<String> fetch(String url) {
        String target = url + "/changes";
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(target))
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("GET " + target + " answered " + r.statusCode());
            }
            List<String> out = new ArrayList<>();
            for (Object o : (List<?>) OffsetJson.read(r.body())) {
                out.add((String) o);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + target + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted during GET " + target, e);
        }
    }
}
