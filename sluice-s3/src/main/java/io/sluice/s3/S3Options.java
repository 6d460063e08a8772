package io.sluice.s3;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The S3 settings Sluice reads, with the names Hadoop's S3A uses ({@code fs.s3a.*}) so that a Spark user's
 * configuration carries over: given as a source or sink option, or engine-wide ({@code Sluice.builder().config},
 * {@code sluice run --conf}, with or without the {@code spark.hadoop.} prefix). A per-bucket value
 * {@code fs.s3a.bucket.<bucket>.<suffix>} wins over {@code fs.s3a.<suffix>} for that bucket, as in S3A.
 *
 * <p>Defaults are Hadoop 3.5's ({@code core-default.xml}) except the connect timeout and the attempts, shorter so
 * that an unreachable endpoint fails within seconds.
 */
public final class S3Options {

    public static final String ACCESS_KEY = "fs.s3a.access.key";
    public static final String SECRET_KEY = "fs.s3a.secret.key";
    public static final String SESSION_TOKEN = "fs.s3a.session.token";
    public static final String ENDPOINT = "fs.s3a.endpoint";
    public static final String REGION = "fs.s3a.endpoint.region";
    public static final String PATH_STYLE = "fs.s3a.path.style.access";
    public static final String SSL = "fs.s3a.connection.ssl.enabled";
    public static final String ATTEMPTS = "fs.s3a.attempts.maximum";
    public static final String CONNECT_TIMEOUT = "fs.s3a.connection.establish.timeout";
    public static final String PAGING_MAXIMUM = "fs.s3a.paging.maximum";

    private static final String PREFIX = "fs.s3a.";
    private static final String BUCKET_PREFIX = "fs.s3a.bucket.";

    /** Every option, declared once: names, types, defaults and checks, for validation and the docs' table. */
    public static final OptionSet DEFS = OptionSet.of(
            OptionDef.string(ACCESS_KEY, "Access key id; with fs.s3a.secret.key, replaces the SDK's default "
                    + "credential chain"),
            OptionDef.string(SECRET_KEY, "Secret access key (a secret: never logged or shown)"),
            OptionDef.string(SESSION_TOKEN, "Session token of temporary credentials (a secret)"),
            OptionDef.string(ENDPOINT, "Endpoint URL or host, e.g. http://localhost:9090; empty: AWS's endpoint "
                    + "for the region").withDefault("").withDefaultText("empty").validatedBy(S3Options::checkEndpoint),
            OptionDef.string(REGION, "Signing region; unset: the SDK's region chain, else us-east-1")
                    .validatedBy(S3Options::checkNotBlank),
            OptionDef.bool(PATH_STYLE, false, "Path-style requests (http://host/bucket/key), as most "
                    + "S3-compatible servers need"),
            OptionDef.bool(SSL, true, "HTTPS for an endpoint given without a scheme"),
            OptionDef.integer(ATTEMPTS, 5, "Attempts of a request that fails transiently (503, throttling, a "
                    + "dropped connection), with exponential backoff").validatedBy(S3Options::checkPositive),
            OptionDef.of(CONNECT_TIMEOUT, OptionDef.Type.DURATION, "Time to open a connection before the attempt "
                    + "fails").withDefault("5s"),
            // As S3A: at least 1, no upper bound (AWS S3 answers at most 1,000 keys a page whatever is asked; some
            // S3-compatible servers honour more, which saves requests on a large prefix).
            OptionDef.integer(PAGING_MAXIMUM, 5000, "Keys asked for in one ListObjectsV2 request (AWS S3 returns "
                    + "at most 1,000)").validatedBy(S3Options::checkPositive));

    private S3Options() {
    }

    /**
     * The settings for one bucket from {@code conf} (engine configuration overlaid with the query's options):
     * {@code spark.hadoop.} prefixes dropped (a key given both ways: the one without the prefix wins, whatever the
     * map's order), per-bucket values applied, each value checked.
     *
     * @throws InvalidOptionException for an invalid value, naming the option and what is accepted (never the
     *         value of a secret)
     */
    static S3Settings resolve(String bucket, Map<String, String> conf) {
        Map<String, String> flat = new java.util.HashMap<>();
        conf.forEach((k, v) -> {
            if (!k.startsWith("spark.hadoop.")) {
                flat.put(k.toLowerCase(Locale.ROOT), v);
            }
        });
        conf.forEach((k, v) -> {
            if (k.startsWith("spark.hadoop.")) {
                flat.putIfAbsent(k.substring("spark.hadoop.".length()).toLowerCase(Locale.ROOT), v);
            }
        });
        String bucketPrefix = BUCKET_PREFIX + bucket.toLowerCase(Locale.ROOT) + ".";
        java.util.function.Function<String, Optional<String>> get = key -> {
            String suffix = key.substring(PREFIX.length()).toLowerCase(Locale.ROOT);
            String perBucket = flat.get(bucketPrefix + suffix);
            return Optional.ofNullable(perBucket != null ? perBucket : flat.get(key.toLowerCase(Locale.ROOT)));
        };
        for (OptionDef d : DEFS.options()) {
            Optional<String> v = get.apply(d.name());
            v.ifPresent(value -> checkValue(d, value));
        }
        String endpoint = get.apply(ENDPOINT).orElse("").trim();
        boolean ssl = bool(SSL, get.apply(SSL).orElse("true"));
        return new S3Settings(bucket,
                get.apply(ACCESS_KEY).map(String::trim).filter(s -> !s.isEmpty()),
                get.apply(SECRET_KEY).map(String::trim).filter(s -> !s.isEmpty()),
                get.apply(SESSION_TOKEN).map(String::trim).filter(s -> !s.isEmpty()),
                endpoint.isEmpty() ? Optional.empty() : Optional.of(endpointUri(endpoint, ssl)),
                get.apply(REGION).map(String::trim),
                bool(PATH_STYLE, get.apply(PATH_STYLE).orElse("false")),
                Integer.parseInt(get.apply(ATTEMPTS).orElse("5").trim()),
                io.sluice.api.Durations.timeStringAsMs(CONNECT_TIMEOUT, get.apply(CONNECT_TIMEOUT).orElse("5s")),
                Integer.parseInt(get.apply(PAGING_MAXIMUM).orElse("5000").trim()));
    }

    private static void checkValue(OptionDef d, String value) {
        boolean secret = d.name().equals(SECRET_KEY) || d.name().equals(SESSION_TOKEN);
        if (secret) {
            return; // any text; and its value must not reach a message
        }
        switch (d.type()) {
            case BOOLEAN -> bool(d.name(), value);
            case INT -> {
                try {
                    Integer.parseInt(value.trim());
                } catch (NumberFormatException e) {
                    throw new InvalidOptionException(d.name(), value, "an integer");
                }
            }
            case DURATION -> io.sluice.api.Durations.timeStringAsMs(d.name(), value);
            default -> { }
        }
        d.validator().check(d.name(), value);
    }

    private static boolean bool(String name, String v) {
        String t = v.trim().toLowerCase(Locale.ROOT);
        if (t.equals("true")) {
            return true;
        }
        if (t.equals("false")) {
            return false;
        }
        throw new InvalidOptionException(name, v, "true or false");
    }

    private static void checkPositive(String name, String value) {
        try {
            if (Integer.parseInt(value.trim()) >= 1) {
                return;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new InvalidOptionException(name, value, "an integer of at least 1");
    }

    private static void checkNotBlank(String name, String value) {
        if (value.isBlank()) {
            throw new InvalidOptionException(name, value, "a region name such as us-east-1");
        }
    }

    private static void checkEndpoint(String name, String value) {
        if (value.isBlank()) {
            return;
        }
        try {
            endpointUri(value.trim(), true);
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException(name, value, "a URL such as http://localhost:9090 or a host name "
                    + "such as s3.eu-west-1.amazonaws.com");
        }
    }

    /** A host (S3A's usual form) gets {@code https://} or {@code http://} by fs.s3a.connection.ssl.enabled. */
    static URI endpointUri(String endpoint, boolean ssl) {
        String withScheme = endpoint.contains("://") ? endpoint : (ssl ? "https://" : "http://") + endpoint;
        try {
            URI u = new URI(withScheme);
            if (u.getHost() == null || !List.of("http", "https").contains(u.getScheme().toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("not an http(s) URL with a host: " + endpoint);
            }
            return u;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URL: " + endpoint, e);
        }
    }
}
