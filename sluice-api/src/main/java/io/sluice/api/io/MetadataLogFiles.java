package io.sluice.api.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.OptionalLong;

/**
 * The files of Spark's metadata logs ({@code HDFSMetadataLog}, {@code CompactibleFileStreamLog}) as Sluice reads
 * them: a checkpoint's {@code offsets/} and {@code commits/}, a file source's {@code sources/<i>/}, a file sink's
 * {@code _spark_metadata/}, and {@code sluice checkpoint show}. The one place where a log file's name becomes a
 * batch id, and where a log file is read whole.
 *
 * <p>Names, exactly as Spark writes them:
 * <ul>
 *   <li>a batch file is named {@code Long.toString(batchId)}: {@code 0}, or digits without a leading zero, at most
 *       {@link Long#MAX_VALUE}. {@code 0005}, {@code 04}, {@code +5}, {@code " 5"}, {@code 5.tmp} are not batch
 *       files (Spark's reader would take {@code 0005} for batch 5: Sluice does not guess);</li>
 *   <li>a compact file is a batch file's name then {@code .compact}: {@code 9.compact};</li>
 *   <li>a name starting with {@code .} is a writer's private file (the temp files of {@link DurableFiles}
 *       {@code .5.<uuid>.tmp}, Spark's {@code .5.crc} checksums) and is never a batch.</li>
 * </ul>
 * Readers ignore every other name; {@link #isUnexpected} tells which of them a user may have put there (and is
 * worth a warning naming the file).
 */
public final class MetadataLogFiles {

    /** The suffix of a compact file: {@code 9.compact}. */
    public static final String COMPACT_SUFFIX = ".compact";

    /**
     * The most {@link #readAll} reads: 64 MiB. A checkpoint's offsets, commits and metadata files are a few
     * kilobytes (a Kafka source with 10,000 partitions writes about 300 KB); a bigger file is not one Sluice wrote.
     */
    public static final long MAX_READ_BYTES = 64L << 20;

    private MetadataLogFiles() {
    }

    /** The batch id a file name stands for, or empty when it is not exactly {@code Long.toString(id)}, id >= 0. */
    public static OptionalLong batchId(String name) {
        return idBefore(name, name.length());
    }

    /** The batch id of a compact file name {@code <id>.compact}, or empty. */
    public static OptionalLong compactId(String name) {
        return idWithSuffix(name, COMPACT_SUFFIX);
    }

    /** The batch id of {@code <id><suffix>} (as {@code 5.hot}), the id written as {@link #batchId} reads it. */
    public static OptionalLong idWithSuffix(String name, String suffix) {
        return name.endsWith(suffix) ? idBefore(name, name.length() - suffix.length()) : OptionalLong.empty();
    }

    /** A writer's private file (temp file, checksum): its name starts with {@code .}. */
    public static boolean isHidden(String name) {
        return name.startsWith(".");
    }

    /**
     * True for a name in a log folder that is neither a batch file, a compact file, a hidden file nor one of
     * {@code known} (a reader's own other files, such as the file source's {@code 5.hot} when {@code known}
     * holds {@code .hot}, or a marker file named exactly as given): a file a user or a tool put there, such as an
     * edited copy {@code 0005}. Readers ignore it and warn once, naming it.
     *
     * @param known exact names, or suffixes starting with {@code .} that follow a batch id
     */
    public static boolean isUnexpected(String name, String... known) {
        if (batchId(name).isPresent() || compactId(name).isPresent() || isHidden(name)) {
            return false;
        }
        for (String k : known) {
            if (name.equals(k) || (k.startsWith(".") && idWithSuffix(name, k).isPresent())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Reads a log file whole, refusing what is not a log file Sluice or Spark wrote: a folder, a device or pipe
     * (also through a symbolic link, as a link to {@code /dev/zero}), or more than {@code maxBytes} bytes. Each
     * refusal is a {@link NotALogFileException} naming the file and what it is.
     *
     * @throws NoSuchFileException when the file does not exist
     */
    public static byte[] readAll(Path file, long maxBytes) throws IOException {
        BasicFileAttributes attrs = regularFile(file);
        if (attrs.size() > maxBytes) {
            throw new NotALogFileException(file, "it is " + attrs.size() + " bytes, more than a log file can be (at "
                    + "most " + maxBytes + ")");
        }
        // Read at most one byte more than allowed, so a file that grows while read is refused, not read forever.
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
            if (bytes.length > maxBytes) {
                throw new NotALogFileException(file, "it is more than " + maxBytes + " bytes, more than a log file "
                        + "can be");
            }
            return bytes;
        }
    }

    /**
     * Checks that a log file that is read as a stream (a file source's log, a file sink's manifest, which may be
     * large) is a regular file, as {@link #readAll} does.
     *
     * @throws NotALogFileException when it is not
     */
    public static void checkRegularFile(Path file) throws IOException {
        regularFile(file);
    }

    private static BasicFileAttributes regularFile(Path file) throws IOException {
        BasicFileAttributes attrs = Files.readAttributes(file, BasicFileAttributes.class);
        if (!attrs.isRegularFile()) {
            throw new NotALogFileException(file, "it is " + (attrs.isDirectory() ? "a folder" : "a device, pipe or "
                    + "socket") + ", not a regular file");
        }
        return attrs;
    }

    private static OptionalLong idBefore(String name, int end) {
        if (end < 1 || end > 19 || (end > 1 && name.charAt(0) == '0')) {
            return OptionalLong.empty();
        }
        long id = 0;
        for (int i = 0; i < end; i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return OptionalLong.empty();
            }
            int digit = c - '0';
            if (id > (Long.MAX_VALUE - digit) / 10) {
                return OptionalLong.empty(); // above Long.MAX_VALUE
            }
            id = id * 10 + digit;
        }
        return OptionalLong.of(id);
    }

    /** A log file that is not one: a folder, a device, or too big. {@link #problem()} says which. */
    public static final class NotALogFileException extends IOException {
        private static final long serialVersionUID = 1L;
        private final String problem;

        NotALogFileException(Path file, String problem) {
            super(file + " cannot be a log file: " + problem);
            this.problem = problem;
        }

        /** What the file is, as a clause: {@code it is a folder, not a regular file}. */
        public String problem() {
            return problem;
        }
    }
}
