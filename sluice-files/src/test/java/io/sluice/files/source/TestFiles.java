package io.sluice.files.source;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;

/** Writing input files with fixed modification times, so tests do not depend on the clock. */
final class TestFiles {
    private TestFiles() {
    }

    /**
     * Writes {@code content} to {@code dir/relative} (creating folders) with modification time {@code mtime}. The
     * file appears whole and with its time at once (written as a hidden sibling, then renamed), so a query running
     * meanwhile never lists it with the clock's time or half written.
     */
    static Path write(Path dir, String relative, String content, long mtime) {
        try {
            Path p = dir.resolve(relative);
            Files.createDirectories(p.getParent());
            Path hidden = p.resolveSibling("." + p.getFileName() + ".writing");
            Files.writeString(hidden, content);
            Files.setLastModifiedTime(hidden, FileTime.fromMillis(mtime));
            Files.move(hidden, p, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
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
