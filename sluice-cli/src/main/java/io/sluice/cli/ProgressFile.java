package io.sluice.cli;

import io.sluice.core.StreamingQueryProgress;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * {@code --progress-file}: each batch's progress as compact JSON (Spark's {@code json}), appended as one line and
 * flushed, so {@code tail -f} and log shippers see every batch as it ends. Opened (created if missing, never
 * truncated) before the query starts, so an unwritable path fails the run first.
 */
final class ProgressFile implements AutoCloseable {
    private final Path path;
    private final BufferedWriter writer;
    private final Redactor redactor;

    private ProgressFile(Path path, BufferedWriter writer, Redactor redactor) {
        this.path = path;
        this.writer = writer;
        this.redactor = redactor;
    }

    static ProgressFile open(Path path, Redactor redactor) {
        try {
            Path parent = path.toAbsolutePath().getParent();
            if (parent != null && !Files.isDirectory(parent)) {
                throw new IOException("the folder " + parent + " does not exist");
            }
            BufferedWriter w = Files.newBufferedWriter(path, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.WRITE);
            return new ProgressFile(path, w, redactor);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open progress file " + path + ": " + message(e), e);
        }
    }

    Path path() {
        return path;
    }

    /** Appends one line and flushes it. */
    synchronized void append(StreamingQueryProgress progress) {
        try {
            writer.write(redactor.text(progress.json()));
            writer.write('\n');
            writer.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write progress file " + path + ": " + message(e), e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            writer.close();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot close progress file " + path + ": " + message(e), e);
        }
    }

    private static String message(IOException e) {
        return e instanceof java.nio.file.NoSuchFileException ? "no such file or folder"
                : e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                : String.valueOf(e.getMessage());
    }
}
