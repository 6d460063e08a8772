package io.sluice.metrics;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The web UI's static files, read from the class path: a fixed map of request paths to resources, so no request
 * path ever names a resource of its own choosing.
 */
final class UiAssets {

    record Asset(String contentType, byte[] bytes) {
    }

    /** The uPlot version of the WebJar the pom names; the page's {@code <script>} and {@code <link>} name it too. */
    static final String UPLOT = "/webjars/uplot/1.6.30/dist/";

    private static final Map<String, String[]> PATHS = Map.of(
            "/", new String[]{"io/sluice/metrics/ui/index.html", "text/html; charset=utf-8"},
            "/ui/app.js", new String[]{"io/sluice/metrics/ui/app.js", "text/javascript; charset=utf-8"},
            "/ui/app.css", new String[]{"io/sluice/metrics/ui/app.css", "text/css; charset=utf-8"},
            UPLOT + "uPlot.iife.min.js", new String[]{"META-INF/resources" + UPLOT + "uPlot.iife.min.js",
                    "text/javascript; charset=utf-8"},
            UPLOT + "uPlot.min.css", new String[]{"META-INF/resources" + UPLOT + "uPlot.min.css",
                    "text/css; charset=utf-8"});

    private static final Map<String, Asset> CACHE = new ConcurrentHashMap<>();

    private UiAssets() {
    }

    /** The asset served at {@code path}, or null when the path is not one of the UI's. */
    static Asset find(String path) {
        String[] p = PATHS.get("/index.html".equals(path) ? "/" : path);
        if (p == null) {
            return null;
        }
        return CACHE.computeIfAbsent(path, k -> new Asset(p[1], read(p[0])));
    }

    private static byte[] read(String resource) {
        try (InputStream in = UiAssets.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("The UI resource " + resource + " is not on the class path");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
