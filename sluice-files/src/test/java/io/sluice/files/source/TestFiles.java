package io.sluice.files.source;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

/** Writing input files with fixed modification times, so tests do not depend on the clock. */
final class TestFiles {
    private TestFiles() {
    }

    /** Writes {@code content} to {@code dir/relative} (creating folders) with modification time {@code mtime}. */
    static Path write(Path dir, String relative, String content, long mtime) {
        try {
            Path p = dir.resolve(relative);
            Files.createDirectories(p.getParent());
            Files.writeString(p, content);
            Files.setLastModifiedTime(p, FileTime.fromMillis(mtime));
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A JSON-lines file of rows {@code {"id":i,"name":"n<i>"}} for ids {@code from..to}. */
    static Path json(Path dir, String relative, long mtime, int... ids) {
        StringBuilder sb = new StringBuilder();
        for (int id : ids) {
            sb.append("{\"id\":").append(id).append(",\"name\":\"n").append(id).append("\"}\n");
        }
        return write(dir, relative, sb.toString(), mtime);
    }

    static void touch(Path p, long mtime) {
        try {
            Files.setLastModifiedTime(p, FileTime.fromMillis(mtime));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
