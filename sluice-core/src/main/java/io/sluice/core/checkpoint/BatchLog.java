package io.sluice.core.checkpoint;

import io.sluice.core.CorruptCheckpointException;
import io.sluice.core.UnsupportedCheckpointVersionException;
import io.sluice.api.io.DurableFiles;
import io.sluice.api.io.MetadataLogFiles;
import io.sluice.core.checkpoint.FileFormat.Malformed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A folder of files named by batch id, like Spark's HDFSMetadataLog: {@code <dir>/0}, {@code <dir>/1}... Each
 * file is text whose first line is the format version ({@code v1}); the rest is up to the {@link Codec}.
 *
 * <p>Only names exactly as Spark writes them ({@link MetadataLogFiles#batchId}: {@code 0} or digits without a
 * leading zero) are batch files; temp files ({@code .3.<uuid>.tmp}), Spark's {@code .3.crc} checksums and anything
 * else are ignored, and a name a user may have put there ({@code 0005}, {@code +5}, {@code 5.tmp}) is warned about
 * once, naming the file. A file is read only when it is a regular file of at most
 * {@link MetadataLogFiles#MAX_READ_BYTES}; anything else is a corrupt checkpoint file. A file is never
 * overwritten. Not thread-safe: one query thread writes a checkpoint (the checkpoint lock keeps others out).
 */
final class BatchLog<T> {

    /** Turns a value into the lines after the version line, and back. */
    interface Codec<T> {
        /** The lines after the version line; none may contain a line break. */
        List<String> encode(T value);

        /**
         * Parses a file. {@code lines} holds every line, the (already checked) version line included, so that
         * problems can count lines as an operator sees them in an editor.
         */
        T decode(List<String> lines) throws Malformed;
    }

    /**
     * What an operator can do about a bad file, knowing its id and the newest id in the log. Returns the
     * sentences that follow "Checkpoint file ... is corrupt or incomplete (...).".
     */
    interface Advisor {
        String advise(long batchId, long newestBatchId);
    }

    private static final Logger LOG = LoggerFactory.getLogger(BatchLog.class);
    private static final Pattern VERSION_LINE = Pattern.compile("v([0-9]{1,9})");

    private final Folder dir;
    private final int version;
    private final Codec<T> codec;
    private final Advisor advisor;
    /** Unexpected names already warned about, so a listing each batch warns once per file. */
    private final Set<String> warned = new HashSet<>();

    /**
     * @param create whether to create the folder (durably) when it is missing; false for a read-only view, which
     *               then lists no batches
     */
    BatchLog(Path dir, int version, Codec<T> codec, Advisor advisor, boolean create) {
        this(Folder.local(dir), version, codec, advisor, create);
    }

    BatchLog(Folder dir, int version, Codec<T> codec, Advisor advisor, boolean create) {
        this.dir = dir;
        this.version = version;
        this.codec = Objects.requireNonNull(codec, "codec");
        this.advisor = Objects.requireNonNull(advisor, "advisor");
        if (!create) {
            return;
        }
        try {
            this.dir.create();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create checkpoint folder " + this.dir.show(), e);
        }
    }

    Folder dir() {
        return dir;
    }

    /** The file of a batch as messages name it: its local path, or its URI on an object store. */
    String fileFor(long batchId) {
        checkId(batchId);
        return dir.show(Long.toString(batchId));
    }

    /**
     * Writes batch {@code batchId}, atomically and durably. Returns false, writing nothing, when the batch already
     * has a file (as Spark's {@code add}): a log entry is written once and never replaced.
     */
    boolean add(long batchId, T value) {
        Objects.requireNonNull(value, "value");
        String file = fileFor(batchId);
        List<String> lines = new ArrayList<>();
        lines.add("v" + version);
        lines.addAll(codec.encode(value));
        for (String line : lines) {
            if (line.indexOf('\n') >= 0 || line.indexOf('\r') >= 0) {
                throw new IllegalArgumentException("A checkpoint line must not contain a line break: " + line);
            }
        }
        try {
            return dir.createNew(Long.toString(batchId), FileFormat.join(lines));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write checkpoint file " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads batch {@code batchId}; empty when it has no file.
     *
     * @throws CorruptCheckpointException             if the file is not a valid entry
     * @throws UnsupportedCheckpointVersionException if a newer format wrote it
     */
    Optional<T> get(long batchId) {
        String file = fileFor(batchId);
        return dir.read(Long.toString(batchId), problem -> CorruptCheckpointException.badFile(file, problem,
                advise(batchId), null)).map(bytes -> decode(batchId, file, bytes));
    }

    /**
     * The newest batch and its content. Like Spark, it does not fall back to an older file when the newest is
     * bad: that would silently re-run or skip a batch.
     */
    Optional<LogEntry<T>> getLatest() {
        OptionalLong latest = latestId();
        if (latest.isEmpty()) {
            return Optional.empty();
        }
        long id = latest.getAsLong();
        // Empty only if the file vanished between listing and reading: then there is no such batch to return.
        return get(id).map(value -> new LogEntry<>(id, value));
    }

    OptionalLong latestId() {
        List<Long> ids = batchIds();
        return ids.isEmpty() ? OptionalLong.empty() : OptionalLong.of(ids.get(ids.size() - 1));
    }

    /** The batch ids that have a file, ascending. */
    List<Long> batchIds() {
        List<Long> ids = new ArrayList<>();
        try {
            for (String name : dir.names()) {
                OptionalLong id = MetadataLogFiles.batchId(name);
                if (id.isPresent()) {
                    ids.add(id.getAsLong());
                } else if (MetadataLogFiles.isUnexpected(name) && warned.add(name)) {
                    LOG.warn("Ignoring {}: not a batch file of this log (a batch file is named by its batch id, "
                            + "as Spark writes it: 0, 1, 2...)", dir.show(name));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list checkpoint folder " + dir.show() + ": " + e.getMessage(), e);
        }
        Collections.sort(ids);
        return ids;
    }

    /** Deletes every batch file with an id below {@code thresholdBatchId} (exclusive, as Spark's purge). */
    void purge(long thresholdBatchId) {
        for (long id : batchIds()) {
            if (id >= thresholdBatchId) {
                break; // ascending
            }
            try {
                dir.delete(Long.toString(id));
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot delete checkpoint file " + fileFor(id) + ": " + e.getMessage(),
                        e);
            }
        }
        // No folder fsync: a deletion lost in a power loss leaves an old batch that the next purge removes.
    }

    private T decode(long batchId, String file, byte[] bytes) {
        try {
            List<String> lines = FileFormat.lines(bytes);
            checkVersion(file, lines.get(0));
            return codec.decode(lines);
        } catch (Malformed e) {
            throw CorruptCheckpointException.badFile(file, e.getMessage(), advise(batchId), e.getCause());
        }
    }

    private void checkVersion(String file, String line) throws Malformed {
        Matcher m = VERSION_LINE.matcher(line);
        int found = m.matches() ? Integer.parseInt(m.group(1)) : 0;
        if (found > version) {
            throw new UnsupportedCheckpointVersionException(file, found, version);
        }
        if (found < 1) {
            throw new Malformed("line 1 should be the version \"v" + version + "\" but is "
                    + (line.isEmpty() ? "empty" : FileFormat.quote(line)));
        }
    }

    private String advise(long batchId) {
        long newest;
        try {
            newest = latestId().orElse(batchId);
        } catch (UncheckedIOException e) {
            newest = batchId; // the advice is a courtesy; the real error is the bad file
        }
        return advisor.advise(batchId, Math.max(batchId, newest));
    }

    private static void checkId(long batchId) {
        if (batchId < 0) {
            throw new IllegalArgumentException("A batch id must be >= 0, was " + batchId);
        }
    }
}
