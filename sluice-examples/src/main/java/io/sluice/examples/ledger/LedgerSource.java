package io.sluice.examples.ledger;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.datasource.DataSource;
import io.sluice.api.datasource.DataSourceContext;
import io.sluice.api.datasource.DataSourceStreamReader;
import io.sluice.core.OffsetJson;
import io.sluice.api.datasource.SupportsAvailableNow;
import io.sluice.api.source.InputPartition;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The mission's ledger source, {@code format("ledger")}: reads an append-only ledger over HTTP by sequence number
 * (see {@link LedgerServer} for the endpoints). The offset is {@code {"seq":N}}: everything up to entry N. A batch
 * {@code ({"seq":a}, {"seq":b}]} is split into partitions of at most {@code rowsPerPartition} sequence numbers,
 * read in parallel, each with {@code GET /ledger?fromSeq=..&limit=..}. Because entries never change, the same
 * range always gives the same rows, also after a restart: exactly-once needs nothing more.
 *
 * <p>Options: {@code url} (required, e.g. {@code http://127.0.0.1:8080}); {@code maxRowsPerBatch} (positive,
 * default none: everything available); {@code rowsPerPartition} (positive, default 1000); {@code startingSeq} (the
 * offset of a new query, not negative, default 0: from the first entry).
 */
public final class LedgerSource implements DataSource {
    static final String SCHEMA = "seq bigint, account string, amountCents bigint, ts timestamp";

    /** A position in the ledger: every entry up to and including {@code seq}. */
    public record LedgerOffset(long seq) {
    }

    /** The entries after {@code afterSeq} up to and including {@code toSeq}. */
    public record SeqRange(String url, long afterSeq, long toSeq) implements InputPartition {
    }

    record Settings(String url, Long maxRows, long rowsPerPartition, long startingSeq) {
        static Settings of(Options o) {
            String url = o.require("url");
            if (!url.startsWith("http://") && !url.startsWith("https://")) {
                throw new InvalidOptionException("url", url, "an http:// or https:// URL is accepted");
            }
            Long maxRows = o.getLong("maxRowsPerBatch").orElse(null);
            if (maxRows != null && maxRows <= 0) {
                throw new InvalidOptionException("maxRowsPerBatch", o.require("maxRowsPerBatch"),
                        "a positive number is accepted");
            }
            long perPartition = o.getLong("rowsPerPartition", 1000);
            if (perPartition <= 0) {
                throw new InvalidOptionException("rowsPerPartition", o.require("rowsPerPartition"),
                        "a positive number is accepted");
            }
            long startingSeq = o.getLong("startingSeq", 0);
            if (startingSeq < 0) {
                throw new InvalidOptionException("startingSeq", o.require("startingSeq"),
                        "a number not below 0 is accepted");
            }
            return new Settings(url.endsWith("/") ? url.substring(0, url.length() - 1) : url, maxRows, perPartition,
                    startingSeq);
        }
    }

    /** Declared once: the engine checks option names against these; {@link Settings} checks the values. */
    static final OptionSet OPTIONS = OptionSet.of(
            OptionDef.string("url", "the ledger server, e.g. http://127.0.0.1:8080").asRequired(),
            OptionDef.of("maxRowsPerBatch", OptionDef.Type.LONG, "the most entries a batch takes"),
            OptionDef.longValue("rowsPerPartition", 1000, "the most entries a partition reads"),
            OptionDef.longValue("startingSeq", 0, "the offset a new query starts from"));

    @Override
    public String name() {
        return "ledger";
    }

    @Override
    public OptionSet options() {
        return OPTIONS;
    }

    @Override
    public String schemaDdl(Options options) {
        Settings.of(options);
        return SCHEMA;
    }

    @Override
    public DataSourceStreamReader<?> streamReader(DataSourceContext context) {
        return new Reader(Settings.of(context.options()));
    }

    /** The most of a server's answer an error message quotes. */
    static final int EXCERPT_CHARS = 300;

    /**
     * The start of a server's answer, on one line, for an error message: a proxy in front of the ledger may answer
     * with an HTML error page of many kilobytes, which would bury the message (and every log line quoting it).
     */
    static String excerpt(String body) {
        String line = body.strip().replaceAll("\\s+", " ");
        if (line.length() <= EXCERPT_CHARS) {
            return line;
        }
        return line.substring(0, EXCERPT_CHARS) + "... (" + (line.length() - EXCERPT_CHARS) + " more characters)";
    }

    /** One run's reader. Holds an HTTP client; the ledger itself holds the data. */
    static final class Reader implements DataSourceStreamReader<LedgerOffset>, SupportsAvailableNow {
        private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        private final Settings settings;
        private Long target;

        Reader(Settings settings) {
            this.settings = settings;
        }

        @Override
        public Class<?> offsetType() {
            return LedgerOffset.class;
        }

        @Override
        public LedgerOffset initialOffset() {
            return new LedgerOffset(settings.startingSeq());
        }

        @Override
        public LedgerOffset latestOffset() {
            Object json = OffsetJson.read(get(settings.url() + "/ledger/latest"));
            return new LedgerOffset(((Number) ((Map<?, ?>) json).get("seq")).longValue());
        }

        @Override
        public LedgerOffset latestOffset(LedgerOffset start, ReadLimit limit) {
            long end = target != null ? target : latestOffset().seq();
            if (settings.maxRows() != null) {
                end = Math.min(end, start.seq() + settings.maxRows());
            }
            if (limit instanceof ReadLimit.MaxRows m) {
                end = Math.min(end, start.seq() + m.rows());
            }
            return new LedgerOffset(Math.max(end, start.seq()));
        }

        @Override
        public ReadLimit defaultReadLimit() {
            return settings.maxRows() == null ? ReadLimit.allAvailable() : ReadLimit.maxRows(settings.maxRows());
        }

        @Override
        public void prepareForTriggerAvailableNow() {
            target = latestOffset().seq();
        }

        @Override
        public List<SeqRange> partitions(LedgerOffset start, LedgerOffset end) {
            List<SeqRange> out = new ArrayList<>();
            for (long s = start.seq(); s < end.seq(); s += settings.rowsPerPartition()) {
                out.add(new SeqRange(settings.url(), s, Math.min(end.seq(), s + settings.rowsPerPartition())));
            }
            return out;
        }

        @Override
        public Iterator<Row> read(InputPartition partition) {
            SeqRange r = (SeqRange) partition;
            long expected = r.toSeq() - r.afterSeq();
            Object json = OffsetJson.read(get(r.url() + "/ledger?fromSeq=" + (r.afterSeq() + 1) + "&limit="
                    + expected));
            List<Row> rows = new ArrayList<>();
            for (Object o : (List<?>) json) {
                Map<?, ?> e = (Map<?, ?>) o;
                long seq = ((Number) e.get("seq")).longValue();
                if (seq != r.afterSeq() + rows.size() + 1) {
                    throw new IllegalStateException("The ledger returned entry " + seq + " where "
                            + (r.afterSeq() + rows.size() + 1) + " was expected");
                }
                rows.add(Row.of(seq, e.get("account"), ((Number) e.get("amountCents")).longValue(),
                        Instant.parse((String) e.get("ts"))));
            }
            // Never a silent gap: a range the ledger no longer (or not yet) has fails the batch, to be retried.
            if (rows.size() != expected) {
                throw new IllegalStateException("The ledger returned " + rows.size() + " entries for seq "
                        + (r.afterSeq() + 1) + ".." + r.toSeq() + ", expected " + expected);
            }
            return rows.iterator();
        }

        static String get(String url) {
            try {
                HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    throw new IllegalStateException("GET " + url + " answered " + response.statusCode() + ": "
                            + excerpt(response.body()));
                }
                return response.body();
            } catch (IOException e) {
                throw new UncheckedIOException("GET " + url + " failed: " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted during GET " + url, e);
            }
        }
    }
}
