package io.sluice.core.sinks;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.sink.SinkProvider;
import io.sluice.values.SparkTimestamps;

import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * {@code format("console")}: see {@link ConsoleSink}. Options: {@code numRows} (int, default 20),
 * {@code truncate} (boolean, default true: cells cut at 20 characters), {@code timeZone} (how timestamps are
 * shown, default the session time zone {@link SinkContext#sessionTimeZone()}, as Spark shows them).
 */
public final class ConsoleSinkProvider implements SinkProvider {
    private static final OptionSet OPTIONS = OptionSet.of(
            OptionDef.integer("numRows", 20, "rows shown per batch"),
            OptionDef.bool("truncate", true, "cut cells longer than 20 characters"),
            OptionDef.string("timeZone", "how timestamps are shown").withDefaultText("the session time zone"));

    /** Takes every output mode, as Spark's equivalent sink. */
    @Override
    public boolean supportsOutputMode(String mode) {
        return true;
    }

    @Override
    public String shortName() {
        return "console";
    }

    @Override
    public OptionSet options() {
        return OPTIONS;
    }

    @Override
    public void validate(Options options) {
        OPTIONS.getInt(options, "numRows");
        OPTIONS.getBoolean(options, "truncate");
        zone(options, ZoneOffset.UTC);
    }

    /** Printed output does not outlive the JVM, so a query may run on a temporary checkpoint. */
    @Override
    public boolean allowsTemporaryCheckpoint() {
        return true;
    }

    @Override
    public Sink createSink(SinkContext context) {
        Options o = context.options();
        return new ConsoleSink(context.schema(), OPTIONS.getInt(o, "numRows"), OPTIONS.getBoolean(o, "truncate"),
                zone(o, context.sessionTimeZone()),
                System.out);
    }

    private static ZoneId zone(Options o, ZoneId sessionZone) {
        String v = o.get("timeZone").orElse(null);
        if (v == null) {
            return sessionZone;
        }
        ZoneId z = SparkTimestamps.zoneId(v.trim()); // Spark's getZoneId, as every timeZone option
        if (z == null) {
            throw new InvalidOptionException("timeZone", v,
                    "a region ID such as 'America/Los_Angeles' or an offset such as '+01:00' is accepted");
        }
        return z;
    }
}
