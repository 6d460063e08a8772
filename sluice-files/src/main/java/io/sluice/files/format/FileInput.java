package io.sluice.files.format;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

/**
 * Opens data files, decompressing by file name as Hadoop's codec factory does: {@code .gz} (gzip, also several
 * concatenated members) and {@code .deflate} (zlib, Hadoop's DefaultCodec). Files of the other codecs Spark reads
 * are refused with a clear error rather than parsed as garbage.
 */
final class FileInput {
    static final int BUFFER = 64 * 1024;
    private static final Map<String, String> UNSUPPORTED = Map.of(
            ".bz2", "bzip2", ".lz4", "lz4", ".snappy", "snappy", ".zst", "zstd", ".zstd", "zstd", ".br", "brotli",
            ".xz", "xz", ".lzo", "lzo");

    private FileInput() {
    }

    static InputStream open(Path file) throws IOException {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        int dot = name.lastIndexOf('.');
        String ext = dot < 0 ? "" : name.substring(dot);
        String codec = UNSUPPORTED.get(ext);
        if (codec != null) {
            throw new IOException("Cannot read " + file + ": it is compressed with " + codec + " (" + ext
                    + "), which is not supported; plain files, .gz and .deflate are read");
        }
        java.util.Optional<io.sluice.files.fs.FileStorage> object = io.sluice.files.fs.ObjectFiles.owner(file);
        if (object.isPresent()) {
            return decompress(object.get().open(file), ext);
        }
        // Opening a FIFO blocks until a writer comes, in a system call no interrupt ends: refuse what is not a
        // regular file (links followed) before opening it. The listing skips such files; this catches one that
        // replaced a listed file.
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
        if (!attributes.isRegularFile()) {
            throw new IOException("Cannot read " + file + ": it is not a regular file (a FIFO, socket, device or "
                    + "directory), so it is not data; reading a FIFO could block forever");
        }
        // A FileChannel's stream: an interrupt (stop()) ends a read in progress.
        InputStream raw = Files.newInputStream(file);
        try {
            if (ext.equals(".gz")) {
                // An empty .gz file is an empty input (Hadoop reads it so), not a corrupt one.
                if (attributes.size() == 0) {
                    return raw;
                }
                return new GZIPInputStream(raw, BUFFER);
            }
            if (ext.equals(".deflate")) {
                return new InflaterInputStream(raw, new Inflater(), BUFFER);
            }
            return raw;
        } catch (IOException | RuntimeException e) {
            raw.close();
            throw e;
        }
    }

    /** An object's stream decompressed by its name; an empty object is an empty input, .gz or not. */
    private static InputStream decompress(InputStream raw, String ext) throws IOException {
        try {
            if (!ext.equals(".gz") && !ext.equals(".deflate")) {
                return raw;
            }
            java.io.PushbackInputStream in = new java.io.PushbackInputStream(raw, 1);
            int first = in.read();
            if (first < 0) {
                return in;
            }
            in.unread(first);
            return ext.equals(".gz") ? new GZIPInputStream(in, BUFFER) : new InflaterInputStream(in, new Inflater(),
                    BUFFER);
        } catch (IOException | RuntimeException e) {
            raw.close();
            throw e;
        }
    }

    static byte[] readAll(Path file) throws IOException {
        try (InputStream in = open(file)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(BUFFER);
            in.transferTo(out);
            return out.toByteArray();
        }
    }

    static int bomLength(byte[] b, int off, int len) {
        return len >= 3 && b[off] == (byte) 0xEF && b[off + 1] == (byte) 0xBB && b[off + 2] == (byte) 0xBF ? 3 : 0;
    }
}
