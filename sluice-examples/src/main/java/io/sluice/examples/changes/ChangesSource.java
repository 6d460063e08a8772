package io.sluice.examples.changes;

import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.datasource.DataSource;
import io.sluice.api.datasource.DataSourceContext;
import io.sluice.core.OffsetJson;
import io.sluice.api.datasource.ReadResult;
import io.sluice.api.datasource.SimpleDataSourceStreamReader;
import io.sluice.api.io.DurableFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * {@code format("changes")}: reads an upstream that can only say "what is new since you last asked"
 * ({@link ChangesServer}) and still gives exactly-once. The fix over {@link NaiveChangesSource}: whatever is fetched
 * is first written durably to a staging log in the source's metadata folder ({@code <checkpoint>/sources/0/staged/}),
 * one file per fetch, named by the offset it starts from, and only then is its offset returned. The staging log is
 * the replayable position the upstream lacks:
 * <ul>
 *   <li>{@code read(start)} first returns a chunk already staged from {@code start} (a crash came after the fetch and
 *       before the batch was logged or committed); otherwise it fetches, stages, and returns;</li>
 *   <li>{@code readBetweenOffsets} (a re-run after a restart) reads the staged chunks back;</li>
 *   <li>{@code commit(end)} deletes the chunks up to {@code end}: the sink has them.</li>
 * </ul>
 * What remains is the instant between the upstream's answer and the staging file's fsync: a crash there loses
 * that answer, which only an upstream with acknowledgements can close.
 *
 * <p>Option: {@code url} (required). Rows: {@code n bigint} (the change's number, from 1), {@code change string}.
 */
public final class ChangesSource implements DataSource {
    /** How many changes were fetched and staged before this position. */
    public record Count(long n) {
    }

    /** One fetch: the changes after {@code from}, numbered from + 1 on. */
    record Chunk(long from, List<String> changes) {
        long to() {
            return from + changes.size();
        }
    }

    @Override
    public String name() {
        return "changes";
    }

    /** Declared, so a misspelt option fails at load() and another unknown one is warned about. */
    @Override
    public OptionSet options() {
        return OptionSet.of(OptionDef.string("url", "the changes server, e.g. http://127.0.0.1:8080").asRequired());
    }

    @Override
    public String schemaDdl(Options options) {
        options.require("url");
        return "n bigint, change string";
    }

    @Override
    public SimpleDataSourceStreamReader<?> simpleStreamReader(DataSourceContext context) {
        return new Reader(context.options().require("url"), context.metadataPath().resolve("staged"));
    }

    static final class Reader implements SimpleDataSourceStreamReader<Count> {
        private final String url;
        private final Path staged;

        Reader(String url, Path staged) {
            this.url = url;
            this.staged = staged;
        }

        @Override
        public Class<?> offsetType() {
            return Count.class;
        }

        @Override
        public Count initialOffset() {
            return new Count(0);
        }

        @Override
        public ReadResult<Count> read(Count start) {
            Chunk chunk = chunks().get(start.n());
            if (chunk == null) {
                List<String> fetched = ChangesClient.fetch(url);
                if (fetched.isEmpty()) {
                    return new ReadResult<>(List.of(), start);
                }
                chunk = new Chunk(start.n(), fetched);
                stage(chunk);
            }
            return new ReadResult<>(rows(chunk), new Count(chunk.to()));
        }

        @Override
        public List<Row> readBetweenOffsets(Count start, Count end) {
            TreeMap<Long, Chunk> chunks = chunks();
            List<Row> rows = new ArrayList<>();
            long at = start.n();
            while (at < end.n()) {
                Chunk c = chunks.get(at);
                if (c == null) {
                    // Never a silent gap: a replay without its staged data fails the batch.
                    throw new IllegalStateException("The staged changes after " + at + " are missing from "
                            + staged + ": cannot replay " + start.n() + " -> " + end.n());
                }
                rows.addAll(rows(c));
                at = c.to();
            }
            return rows;
        }

        @Override
        public void commit(Count end) {
            for (Chunk c : chunks().values()) {
                if (c.to() <= end.n()) {
                    try {
                        Files.deleteIfExists(file(c.from()));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            }
        }

        private static List<Row> rows(Chunk c) {
            List<Row> rows = new ArrayList<>(c.changes().size());
            for (int i = 0; i < c.changes().size(); i++) {
                rows.add(Row.of(c.from() + i + 1, c.changes().get(i)));
            }
            return rows;
        }

        private Path file(long from) {
            return staged.resolve(String.format("%019d.json", from));
        }

        private void stage(Chunk chunk) {
            try {
                DurableFiles.createDirectories(staged);
                DurableFiles.createNew(file(chunk.from()), OffsetJson.write(chunk).getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot stage changes in " + staged + ": " + e.getMessage(), e);
            }
        }

        /** The staged chunks by their start; temp files (a dot first) are skipped. */
        private TreeMap<Long, Chunk> chunks() {
            TreeMap<Long, Chunk> out = new TreeMap<>();
            if (!Files.isDirectory(staged)) {
                return out;
            }
            try (DirectoryStream<Path> files = Files.newDirectoryStream(staged, "[0-9]*.json")) {
                for (Path f : files) {
                    Chunk c = OffsetJson.read(Files.readString(f, StandardCharsets.UTF_8), Chunk.class);
                    out.put(c.from(), c);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read staged changes in " + staged + ": " + e.getMessage(), e);
            }
            return out;
        }
    }
}
