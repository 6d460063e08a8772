package io.sluice.otlp;

import io.micrometer.core.instrument.Clock;
import io.micrometer.registry.otlp.OtlpConfig;
import io.micrometer.registry.otlp.OtlpMeterRegistry;
import io.sluice.api.Durations;
import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.core.Sluice;
import io.sluice.metrics.SluiceMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * Pushes the meters of every query of a {@link Sluice} instance ({@link SluiceMetrics}, with the JVM's) to an
 * OpenTelemetry collector over OTLP/HTTP (protobuf, {@code POST <url>}), through Micrometer's
 * {@link OtlpMeterRegistry}: every {@code otlp.step} on the registry's own thread, and once more at {@link #close()}.
 * Nothing of it runs on a query thread; a collector that is down is logged by the registry and never reaches a query.
 *
 * <p>The settings keep Micrometer's names ({@code otlp.url}, {@code otlp.step}, {@code otlp.headers},
 * {@code otlp.resourceAttributes}), declared in {@link #OPTIONS} and checked before anything starts. An application
 * with an {@code OtlpMeterRegistry} of its own binds it with {@code SluiceMetrics.bind(sluice, registry)} instead.
 */
public final class SluiceOtlp implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SluiceOtlp.class);

    /** {@code otlp.url}: where the metrics are posted. */
    public static final OptionDef URL = OptionDef.string("otlp.url", "The collector's OTLP/HTTP metrics endpoint, "
            + "e.g. http://localhost:4318/v1/metrics").asRequired().validatedBy(SluiceOtlp::checkUrl);
    /** {@code otlp.step}: how often they are pushed. */
    public static final OptionDef STEP = OptionDef.of("otlp.step", OptionDef.Type.DURATION, "How often the meters "
            + "are pushed (a time string: 10s, 1m, 500ms); also pushed once when the export closes")
            .withDefault("1m").validatedBy(SluiceOtlp::checkStep);
    /** {@code otlp.headers}: HTTP headers of every push, e.g. an authorization. */
    public static final OptionDef HEADERS = OptionDef.string("otlp.headers", "HTTP headers sent with every push, "
            + "as key1=value1,key2=value2 (an Authorization header, for one)").validatedBy(SluiceOtlp::checkPairs);
    /** {@code otlp.resourceAttributes}: the resource the metrics describe. */
    public static final OptionDef RESOURCE_ATTRIBUTES = OptionDef.string("otlp.resourceAttributes", "The OTLP "
            + "resource's attributes, as key1=value1,key2=value2").withDefault("service.name=sluice")
            .validatedBy(SluiceOtlp::checkPairs);
    /** Every setting of the export. */
    public static final OptionSet OPTIONS = OptionSet.of(URL, STEP, HEADERS, RESOURCE_ATTRIBUTES);

    private final OtlpMeterRegistry registry;
    private final SluiceMetrics metrics;
    private final AutoCloseable jvm;
    private boolean closed;

    private SluiceOtlp(OtlpMeterRegistry registry, SluiceMetrics metrics, AutoCloseable jvm) {
        this.registry = registry;
        this.metrics = metrics;
        this.jvm = jvm;
    }

    /**
     * Starts pushing to {@code url} every minute: {@code start(sluice, Map.of("otlp.url", url))}.
     *
     * @throws InvalidOptionException when the URL is not an http or https URL
     */
    public static SluiceOtlp start(Sluice sluice, String url) {
        return start(sluice, Map.of(URL.name(), url));
    }

    /**
     * Checks {@code settings} (the keys of {@link #OPTIONS}, case-insensitive) and starts pushing the meters of every
     * query of {@code sluice}, those running and those started later.
     *
     * @throws InvalidOptionException naming the setting, the value and what is accepted, before anything starts
     */
    public static SluiceOtlp start(Sluice sluice, Map<String, String> settings) {
        return start(sluice, Options.of(settings));
    }

    static SluiceOtlp start(Sluice sluice, Options options) {
        for (String key : options.asMap().keySet()) {
            if (!OPTIONS.knows(key)) {
                throw new InvalidOptionException(key, options.get(key).orElse(null), "not an OTLP setting; "
                        + "accepted: otlp.url, otlp.step, otlp.headers, otlp.resourceAttributes");
            }
        }
        OPTIONS.validate(options);
        String url = OPTIONS.require(options, URL.name());
        Duration step = Duration.ofMillis(Durations.timeStringAsMs(STEP.name(),
                OPTIONS.get(options, STEP.name()).orElseThrow()));
        String headers = OPTIONS.get(options, HEADERS.name()).orElse(null);
        String resource = OPTIONS.get(options, RESOURCE_ATTRIBUTES.name()).orElseThrow();
        OtlpConfig config = new OtlpConfig() {
            @Override
            public String get(String key) {
                // Only what Sluice declares: Micrometer's other settings keep their defaults.
                return switch (key) {
                    case "otlp.url" -> url;
                    case "otlp.headers" -> headers;
                    case "otlp.resourceAttributes" -> resource;
                    default -> null;
                };
            }

            @Override
            public Duration step() {
                return step;
            }
        };
        OtlpMeterRegistry registry = new OtlpMeterRegistry(config, Clock.SYSTEM);
        SluiceMetrics metrics = SluiceMetrics.bind(sluice, registry);
        AutoCloseable jvm = SluiceMetrics.bindJvm(registry);
        return new SluiceOtlp(registry, metrics, jvm);
    }

    /** The registry the meters are pushed from, to add meters of one's own to the export. */
    public OtlpMeterRegistry registry() {
        return registry;
    }

    /** Pushes the meters once more, stops the registry's thread, then removes the meters and the listener. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        // The last push reads the meters: close the registry before the binding removes them.
        registry.close();
        metrics.close();
        try {
            jvm.close();
        } catch (Exception e) {
            LOG.debug("Closing the JVM binders failed", e);
        }
    }

    private static void checkUrl(String name, String value) {
        URI uri;
        try {
            uri = new URI(value.trim());
        } catch (URISyntaxException e) {
            throw new InvalidOptionException(name, value, "an http or https URL is accepted, e.g. "
                    + "http://localhost:4318/v1/metrics (" + e.getReason() + ")");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw new InvalidOptionException(name, value, "an http or https URL is accepted, e.g. "
                    + "http://localhost:4318/v1/metrics");
        }
    }

    private static void checkStep(String name, String value) {
        if (Durations.timeStringAsMs(name, value) <= 0) {
            throw new InvalidOptionException(name, value, "a positive time is accepted, e.g. 10s or 1m");
        }
    }

    private static void checkPairs(String name, String value) {
        for (String pair : value.split(",")) {
            int eq = pair.indexOf('=');
            if (eq <= 0 || pair.substring(0, eq).isBlank()) {
                // The value may hold a secret (an Authorization header): it is not repeated.
                throw new InvalidOptionException(name, null, "Invalid value for option '" + name + "': expected "
                        + "key1=value1,key2=value2 (a part has no key or no '=')", true);
            }
        }
    }
}
