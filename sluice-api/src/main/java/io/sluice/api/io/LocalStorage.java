package io.sluice.api.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * {@link Storage} on the local disk, through {@link DurableFiles}. URIs are plain paths or {@code file:} URIs
 * ({@link LocalPaths}); listed objects' URIs are the prefix as the caller wrote it followed by the relative path.
 * Writers' temp files ({@code .<name>.<uuid>.tmp}, see {@link DurableFiles}) are never listed: on an object store
 * an object is not visible before it is whole either.
 */
final class LocalStorage implements Storage {
    static final LocalStorage INSTANCE = new LocalStorage();

    /** Serialises the compare and the replace of {@link #replaceIfVersion} within this JVM. */
    private final Object replaceLock = new Object();

    private LocalStorage() {
    }

    private static Path path(String uri) {
        return LocalPaths.of("path", uri);
    }

    @Override
    public Optional<Path> localPath(String uri) {
        return Optional.of(path(uri));
    }

    @Override
    public Optional<StoredObject> status(String uri) throws IOException {
        Path p = path(uri);
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(p, BasicFileAttributes.class);
        } catch (NoSuchFileException | NotDirectoryException e) {
            return Optional.empty();
        }
        if (a.isDirectory()) {
            return Optional.empty();
        }
        return Optional.of(new StoredObject(uri, a.size(), a.lastModifiedTime().toMillis(), tag(a)));
    }

    /** Identity (inode: a rename over the file gives a new one), size and modification time in nanoseconds. */
    private static String tag(BasicFileAttributes a) {
        Object key = a.fileKey();
        return (key == null ? "" : key.toString().replace(' ', '_')) + "-" + a.size() + "-"
                + a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    @Override
    public void list(String prefix, String startAfter, ListVisitor visitor) throws IOException {
        int slash = prefix.lastIndexOf('/');
        String base = prefix.substring(0, slash + 1); // what stays as the caller wrote it
        String namePrefix = prefix.substring(slash + 1);
        Path dir = base.isEmpty() ? Path.of("").toAbsolutePath() : path(base);
        List<String> rel = new ArrayList<>();
        collect(dir, "", namePrefix, rel);
        rel.sort(Comparator.comparing((String s) -> s.getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned));
        byte[] after = startAfter == null ? null : startAfter.getBytes(StandardCharsets.UTF_8);
        for (String r : rel) {
            String uri = base + r;
            if (after != null && Arrays.compareUnsigned(uri.getBytes(StandardCharsets.UTF_8), after) <= 0) {
                continue;
            }
            Optional<StoredObject> s = status(uri);
            if (s.isPresent() && !visitor.visit(s.get())) {
                return;
            }
        }
    }

    private static void collect(Path dir, String relDir, String namePrefix, List<String> out) throws IOException {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path child : ds) {
                String name = child.getFileName().toString();
                if (!name.startsWith(namePrefix) || isTemp(name)) {
                    continue;
                }
                if (Files.isDirectory(child)) {
                    collect(child, relDir + name + "/", "", out);
                } else {
                    out.add(relDir + name);
                }
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            // Nothing there, or removed while listing: lists nothing.
        }
    }

    /** A {@link DurableFiles} temp file, {@code .<name>.<uuid>.tmp}: not an object until it is put in place. */
    private static boolean isTemp(String name) {
        return name.startsWith(".") && name.endsWith(".tmp");
    }

    @Override
    public InputStream open(String uri, String versionTag) throws IOException {
        return open(uri, 0, Long.MAX_VALUE, versionTag);
    }

    @Override
    public InputStream open(String uri, long offset, long length, String versionTag) throws IOException {
        Path p = path(uri);
        FileChannel ch = FileChannel.open(p, StandardOpenOption.READ);
        try {
            // Checked on the open channel: a rename over the file after this leaves the channel on the old
            // version, read whole, never a mix.
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            if (a.isDirectory()) {
                throw new IOException(uri + " is a folder, not a file");
            }
            if (versionTag != null && !versionTag.equals(tag(a))) {
                throw new VersionChangedException(uri, versionTag, tag(a));
            }
            ch.position(Math.min(offset, ch.size()));
            InputStream in = Channels.newInputStream(ch);
            return length == Long.MAX_VALUE ? in : new BoundedInputStream(in, length);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    @Override
    public boolean createExclusive(String uri, byte[] content) throws IOException {
        Path p = path(uri);
        DurableFiles.createDirectories(p.getParent());
        try {
            DurableFiles.createNew(p, content);
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        }
    }

    @Override
    public Optional<String> replaceIfVersion(String uri, byte[] content, String expectedTag) throws IOException {
        synchronized (replaceLock) {
            Optional<StoredObject> now = status(uri);
            if (now.isEmpty() || !now.get().versionTag().equals(expectedTag)) {
                return Optional.empty();
            }
            DurableFiles.replace(path(uri), content);
            return status(uri).map(StoredObject::versionTag);
        }
    }

    @Override
    public WholeObjectOutput create(String uri, boolean overwrite) throws IOException {
        Path target = path(uri);
        DurableFiles.createDirectories(target.getParent());
        Path tmp = DurableFiles.tempSibling(target);
        FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        OutputStream out = new java.io.BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16);
        return new WholeObjectOutput() {
            private boolean done;

            @Override
            public void write(int b) throws IOException {
                out.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void flush() throws IOException {
                out.flush();
            }

            @Override
            public void close() throws IOException {
                if (done) {
                    return;
                }
                done = true;
                try {
                    out.flush();
                    ch.force(true);
                    ch.close();
                    if (overwrite) {
                        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    } else {
                        try {
                            Files.createLink(target, tmp);
                        } catch (FileAlreadyExistsException e) {
                            throw new FileAlreadyExistsException(uri, null,
                                    "the file already exists and is never overwritten");
                        }
                    }
                } finally {
                    ch.close();
                    Files.deleteIfExists(tmp);
                }
                DurableFiles.fsyncFolder(target.getParent());
            }

            @Override
            public void abort() {
                if (done) {
                    return;
                }
                done = true;
                try {
                    ch.close();
                    Files.deleteIfExists(tmp);
                } catch (IOException e) {
                    // A leftover temp file is hidden and harmless (see DurableFiles).
                }
            }
        };
    }

    @Override
    public void copy(String from, String to) throws IOException {
        Path src = path(from);
        Path dst = path(to);
        if (!Files.isRegularFile(src)) {
            throw new NoSuchFileException(from);
        }
        DurableFiles.createDirectories(dst.getParent());
        DurableFiles.replace(dst, out -> Files.copy(src, out));
    }

    @Override
    public boolean delete(String uri) throws IOException {
        return Files.deleteIfExists(path(uri));
    }

    /** At most {@code remaining} bytes of a stream. */
    private static final class BoundedInputStream extends java.io.FilterInputStream {
        private long remaining;

        BoundedInputStream(InputStream in, long remaining) {
            super(in);
            this.remaining = remaining;
        }

        @Override
        public int read() throws IOException {
            if (remaining <= 0) {
                return -1;
            }
            int b = super.read();
            if (b >= 0) {
                remaining--;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (remaining <= 0) {
                return -1;
            }
            int n = super.read(b, off, (int) Math.min(len, remaining));
            if (n > 0) {
                remaining -= n;
            }
            return n;
        }
    }
}
