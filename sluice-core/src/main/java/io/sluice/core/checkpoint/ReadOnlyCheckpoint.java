package io.sluice.core.checkpoint;

import io.sluice.core.CorruptCheckpointException;
import io.sluice.core.UnsupportedCheckpointVersionException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A checkpoint folder opened for reading only, with the same readers and checks as {@link Checkpoint}: it takes no
 * lock, creates no folder and writes nothing, so it can be used beside the query that holds the checkpoint (whose
 * purges may delete a file between a listing and a read: {@link #offsets} is then empty) and on a copy of a Spark
 * checkpoint. Each call reads the files anew. The engine's public view of it is {@code io.sluice.core.CheckpointView}.
 */
public final class ReadOnlyCheckpoint {

    private final Path path;
    private final OffsetLog offsetLog;
    private final CommitLog commitLog;

    private ReadOnlyCheckpoint(Path path) {
        this.path = path;
        Path commits = path.resolve("commits");
        this.commitLog = new CommitLog(commits, false);
        this.offsetLog = new OffsetLog(path.resolve("offsets"), commits, false);
    }

    /** The checkpoint at {@code dir}, which is not checked for existence here (a missing log lists no batches). */
    public static ReadOnlyCheckpoint of(Path dir) {
        return new ReadOnlyCheckpoint(Objects.requireNonNull(dir, "dir").toAbsolutePath().normalize());
    }

    /** The checkpoint folder, absolute. */
    public Path path() {
        return path;
    }

    /** The {@code metadata} file, which may not exist. */
    public Path metadataFile() {
        return path.resolve(QueryMetadata.FILE_NAME);
    }

    /**
     * The query id from {@code metadata}; empty when there is no such file.
     *
     * @throws CorruptCheckpointException when it is not a valid {@code metadata} file
     */
    public Optional<String> queryId() {
        return QueryMetadata.readExisting(metadataFile());
    }

    /** The batch ids with a file in {@code offsets/}, ascending. */
    public List<Long> offsetIds() {
        return offsetLog.batchIds();
    }

    /**
     * The content of {@code offsets/<batchId>}; empty when it has no file (never logged, purged).
     *
     * @throws CorruptCheckpointException             as {@link OffsetLog#get}
     * @throws UnsupportedCheckpointVersionException as {@link OffsetLog#get}
     */
    public Optional<OffsetSeq> offsets(long batchId) {
        return offsetLog.get(batchId);
    }

    /** The file of a batch's offsets (which may not exist). */
    public Path offsetsFile(long batchId) {
        return Path.of(offsetLog.fileFor(batchId));
    }

    /** The batch ids with a file in {@code commits/}, ascending. */
    public List<Long> commitIds() {
        return commitLog.batchIds();
    }

    /** The newest batch id in {@code offsets/}, without reading the file. */
    public OptionalLong latestOffsetsId() {
        return offsetLog.latestId();
    }

    /** The indexes {@code i} that have a folder {@code sources/<i>/}, ascending (as {@link Checkpoint#sourceDir}). */
    public List<Integer> sourceIndexes() {
        List<Integer> indexes = new ArrayList<>();
        Path sources = path.resolve("sources");
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(sources, Files::isDirectory)) {
            for (Path entry : entries) {
                OptionalLong id = io.sluice.api.io.MetadataLogFiles.batchId(entry.getFileName().toString());
                if (id.isPresent() && id.getAsLong() <= Integer.MAX_VALUE) {
                    indexes.add((int) id.getAsLong());
                }
            }
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list checkpoint folder " + sources + ": " + e.getMessage(), e);
        }
        Collections.sort(indexes);
        return indexes;
    }

    /** Source {@code i}'s private folder {@code sources/<i>/} (which may not exist). */
    public Path sourceDir(int i) {
        return Checkpoint.sourceDirOf(path, i);
    }
}
