package io.sluice.core.checkpoint;

import io.sluice.core.CorruptCheckpointException;
import io.sluice.api.io.DurableFiles;
import io.sluice.core.checkpoint.FileFormat.Malformed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;

/**
 * The checkpoint's {@code metadata} file: {@code {"id":"<uuid>"}} on one line, no version line, no trailing
 * newline (Spark's StreamMetadata). Written once, when the checkpoint is first used; the query id lives here.
 */
final class QueryMetadata {

    static final String FILE_NAME = "metadata";

    private QueryMetadata() {
    }

    /** The query id in {@code file}, creating the file with a new random id when it does not exist. */
    static String readOrCreate(Path file) {
        try {
            return read(file, Files.readAllBytes(file));
        } catch (NoSuchFileException e) {
            // First start (as Spark, also when only the metadata file is gone: the logs stay usable).
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read checkpoint file " + file + ": " + e.getMessage(), e);
        }
        String id = UUID.randomUUID().toString();
        try {
            DurableFiles.createNew(file, json(id).getBytes(StandardCharsets.UTF_8));
            return id;
        } catch (FileAlreadyExistsException e) {
            // Another writer got there first (cannot happen under the lock, but its id is the one that counts).
            try {
                return read(file, Files.readAllBytes(file));
            } catch (IOException e2) {
                throw new UncheckedIOException("Cannot read checkpoint file " + file + ": " + e2.getMessage(), e2);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write checkpoint file " + file + ": " + e.getMessage(), e);
        }
    }

    /** {@link #readOrCreate(Path)} in a checkpoint {@link Folder} (on an object store: created exclusively). */
    static String readOrCreate(Folder folder, String name) {
        String file = folder.show(name);
        java.util.function.Function<String, CorruptCheckpointException> corrupt = problem -> bad(file, problem, null);
        Optional<byte[]> existing = folder.read(name, corrupt);
        if (existing.isPresent()) {
            return read(file, existing.get());
        }
        String id = UUID.randomUUID().toString();
        try {
            if (folder.createNew(name, json(id).getBytes(StandardCharsets.UTF_8))) {
                return id;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write checkpoint file " + file + ": " + e.getMessage(), e);
        }
        // Another writer got there first: its id is the one that counts.
        return read(file, folder.read(name, corrupt).orElseThrow(() -> new UncheckedIOException(
                new IOException("Checkpoint file " + file + " vanished right after it was written"))));
    }

    /**
     * The query id in {@code file}, reading only (for a read-only view); empty when there is no file.
     *
     * @throws CorruptCheckpointException when the file is not a valid {@code metadata} file (or not a file)
     */
    static Optional<String> readExisting(Path file) {
        return FileFormat.read(file, problem -> bad(file, problem, null)).map(bytes -> read(file, bytes));
    }

    static String json(String id) {
        return FileFormat.json(g -> {
            g.writeStartObject();
            g.writeStringField("id", id);
            g.writeEndObject();
        });
    }

    private static String read(Path file, byte[] bytes) {
        return read(file.toString(), bytes);
    }

    private static String read(String file, byte[] bytes) {
        try {
            java.util.Map<String, Object> node = FileFormat.object(FileFormat.parse(FileFormat.text(bytes), "it"));
            if (node == null || !(node.get("id") instanceof String text)) {
                throw new Malformed("it is not a JSON object with a string \"id\"");
            }
            try {
                // Spark parses the id as a UUID too; a canonical (lower-case) form is what both write.
                if (!UUID.fromString(text).toString().equals(text)) {
                    throw new IllegalArgumentException();
                }
            } catch (IllegalArgumentException e) {
                throw new Malformed("\"id\" is not a UUID: " + FileFormat.quote(text));
            }
            return text;
        } catch (Malformed e) {
            throw bad(file, e.getMessage(), e.getCause());
        }
    }

    private static CorruptCheckpointException bad(Path file, String problem, Throwable cause) {
        return bad(file.toString(), problem, cause);
    }

    private static CorruptCheckpointException bad(String file, String problem, Throwable cause) {
        return CorruptCheckpointException.badFile(file, problem, "It holds the query id, so the query cannot start "
                + "from it: " + FileFormat.RESTORE_OR_START_OVER, cause);
    }
}
