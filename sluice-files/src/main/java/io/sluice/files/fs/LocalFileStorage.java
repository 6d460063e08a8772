package io.sluice.files.fs;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/** {@link FileStorage} on the local file system. */
final class LocalFileStorage implements FileStorage {
    static final LocalFileStorage INSTANCE = new LocalFileStorage();

    private LocalFileStorage() {
    }

    @Override
    public String uri(Path path) {
        String abs = (path.isAbsolute() ? path : path.toAbsolutePath()).toString();
        if (java.io.File.separatorChar != '/') {
            abs = "/" + abs.replace(java.io.File.separatorChar, '/');
        }
        // Quotes what a URI path cannot hold (space, %, #, ?...) and keeps other characters, as java.net.URI's
        // multi-argument constructors (and so Hadoop's Path) do. Done by hand: listing calls this for every file.
        StringBuilder sb = null;
        for (int i = 0; i < abs.length(); i++) {
            char c = abs.charAt(i);
            if (legalInPath(c)) {
                if (sb != null) {
                    sb.append(c);
                }
                continue;
            }
            if (c >= 0x80 && !Character.isSpaceChar(c) && !Character.isISOControl(c)) {
                if (sb != null) {
                    sb.append(c);
                }
                continue;
            }
            if (sb == null) {
                sb = new StringBuilder(abs.length() + 16).append("file://").append(abs, 0, i);
            }
            if (Character.isSurrogate(c) || c >= 0x80) {
                return slowUri(abs);
            }
            sb.append('%').append(HEX[c >> 4]).append(HEX[c & 15]);
        }
        return sb == null ? "file://" + abs : sb.toString();
    }

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    /** RFC 2396 path characters: unreserved, ':' '@' '&' '=' '+' '$' ',' ';' and '/'. */
    private static boolean legalInPath(char c) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
            return true;
        }
        return "-_.!~*'():@&=+$,;/".indexOf(c) >= 0;
    }

    private static String slowUri(String abs) {
        try {
            return "file://" + new URI(null, null, abs, null).getRawPath();
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("Cannot express " + abs + " as a URI", e);
        }
    }

    @Override
    public Path path(String uri) {
        if (!uri.startsWith("file:")) {
            if (uri.contains(":/")) {
                throw new IllegalArgumentException("Not a local file URI: " + uri);
            }
            return Paths.get(uri).toAbsolutePath();
        }
        if (uri.startsWith("file:///") && uri.indexOf('%') < 0 && uri.indexOf('#') < 0 && uri.indexOf('?') < 0
                && java.io.File.separatorChar == '/') {
            return Paths.get(uri.substring(7)); // nothing to decode: the common case, kept cheap
        }
        try {
            return Paths.get(new URI(uri).getPath());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("Not a valid file URI: " + uri, e);
        }
    }

    @Override
    public String display(Path path) {
        return "file:" + path.toAbsolutePath();
    }

    @Override
    public Optional<FileStatus> status(Path path) throws IOException {
        try {
            return Optional.of(toStatus(path, Files.readAttributes(path, BasicFileAttributes.class)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    @Override
    public List<FileStatus> list(Path directory) throws IOException {
        List<Path> children = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
            for (Path child : stream) {
                children.add(child);
            }
        }
        int n = children.size();
        if (n < PARALLEL_STAT_MIN || Runtime.getRuntime().availableProcessors() < 2) {
            return stat(children, 0, n);
        }
        // One stat per entry is most of a large folder's listing: the second half goes to a helper thread.
        int half = n / 2;
        AtomicReference<List<FileStatus>> second = new AtomicReference<>();
        AtomicReference<IOException> failed = new AtomicReference<>();
        Thread helper = new Thread(() -> {
            try {
                second.set(stat(children, half, n));
            } catch (IOException e) {
                failed.set(e);
            }
        }, "sluice-file-list-stat");
        helper.setDaemon(true);
        helper.start();
        List<FileStatus> out = stat(children, 0, half);
        try {
            helper.join();
        } catch (InterruptedException e) {
            helper.interrupt();
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("Interrupted while listing " + directory);
        }
        if (failed.get() != null) {
            throw failed.get();
        }
        out.addAll(second.get());
        return out;
    }

    /** Folders with at least this many entries are stat'ed on two threads. */
    private static final int PARALLEL_STAT_MIN = 8192;

    private static List<FileStatus> stat(List<Path> children, int from, int to) throws IOException {
        List<FileStatus> out = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            Path child = children.get(i);
            try {
                out.add(toStatus(child, Files.readAttributes(child, BasicFileAttributes.class)));
            } catch (NoSuchFileException e) {
                // Removed, or a dangling link: not a file to read.
            }
        }
        return out;
    }

    /** Links are followed (readAttributes does): a link to a FIFO is special, a link to a regular file is not. */
    private static FileStatus toStatus(Path path, BasicFileAttributes a) {
        boolean special = !a.isDirectory() && !a.isRegularFile();
        return new FileStatus(path, a.isDirectory(), a.isRegularFile() ? a.size() : 0,
                a.lastModifiedTime().toMillis(), special);
    }

    @Override
    public InputStream open(Path path) throws IOException {
        return Files.newInputStream(path);
    }

    @Override
    public void move(Path source, Path target) throws IOException {
        Path parent = target.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        // No REPLACE_EXISTING: an existing target fails rather than being overwritten. Across file systems the
        // move becomes copy and delete, which is fine for a file that is no longer read.
        Files.move(source, target);
    }

    @Override
    public boolean delete(Path path) throws IOException {
        return Files.deleteIfExists(path);
    }

    @Override
    public String toString() {
        return "LocalFileStorage";
    }
}
