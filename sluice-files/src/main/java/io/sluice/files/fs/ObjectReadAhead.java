package io.sluice.files.fs;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;

/**
 * The files of one reader fetched ahead of it from an object store ({@link FileStorage#readAhead}). On S3 a
 * file's GET waits a round trip before its first byte and then comes at one connection's speed, so a reader that
 * opens its files one after another waits on the network about as long as it parses; with the next files already
 * fetched it parses while they come.
 *
 * <p>The first file is streamed as without read-ahead (the reader opens it at once). Of the files after the one
 * being read, the next {@value #FILES} are fetched, in order, each whole into memory by one GET pinned to the
 * version tag its listing gave, as long as the bytes fetched and not yet opened stay within {@value #BYTES}; a file
 * bigger than that is never fetched ahead but streamed when opened. A fetch's failure (the object gone, replaced
 * since the listing) is the failure its open gives, unchanged. Closing drops every fetch not opened, closing its
 * connection.
 */
final class ObjectReadAhead implements FileStorage.ReadAhead {
    static final int FILES = 8;
    static final long BYTES = 32L << 20;

    /** One file's fetch: its bytes when done; the stream it reads from, to be closed to cancel it. */
    private static final class Fetch {
        final long size;
        final CompletableFuture<byte[]> bytes = new CompletableFuture<>();
        private InputStream stream;
        private boolean cancelled;

        Fetch(long size) {
            this.size = size;
        }

        synchronized boolean attach(InputStream in) {
            if (cancelled) {
                return false;
            }
            stream = in;
            return true;
        }

        void cancel() {
            InputStream in;
            synchronized (this) {
                cancelled = true;
                in = stream;
            }
            bytes.cancel(false);
            if (in != null) {
                try {
                    in.close(); // ends a read in progress on the fetch thread
                } catch (IOException e) {
                    // dropped: nothing was read from it for anyone
                }
            }
        }
    }

    /** How a fetch opens its file: {@code ObjectFileStorage}'s pinned GET. */
    @FunctionalInterface
    interface Opener {
        InputStream open(String uri) throws IOException;
    }

    private final List<String> uris;
    private final long[] sizes;
    private final Map<String, Integer> positions = new HashMap<>();
    private final Fetch[] fetches;
    private final Opener opener;
    private final Executor executor;
    /** The position of the file the reader opened last; the first file is streamed, so fetching starts after it. */
    private int opened;
    private int next = 1;
    private long buffered;
    private boolean closed;

    ObjectReadAhead(List<String> uris, long[] sizes, Opener opener, Executor executor) {
        this.uris = List.copyOf(uris);
        this.sizes = sizes.clone();
        this.fetches = new Fetch[uris.size()];
        this.opener = opener;
        this.executor = executor;
        for (int i = 0; i < uris.size(); i++) {
            positions.putIfAbsent(uris.get(i), i);
        }
    }

    List<String> uris() {
        return uris;
    }

    synchronized void start() {
        topUp();
    }

    /**
     * The file's content when it was fetched ahead (waiting for its fetch to end), else null: open it as usual.
     * Either way the window moves past it.
     *
     * @throws IOException the fetch's failure, as the open would have given it
     */
    InputStream open(String uri) throws IOException {
        Fetch f;
        synchronized (this) {
            Integer at = positions.get(uri);
            if (closed || at == null) {
                return null;
            }
            f = fetches[at];
            fetches[at] = null;
            if (f != null) {
                buffered -= f.size;
            }
            opened = Math.max(opened, at);
            topUp();
        }
        if (f == null) {
            return null;
        }
        try {
            return new ByteArrayInputStream(f.bytes.get());
        } catch (InterruptedException e) {
            f.cancel();
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading " + uri);
        } catch (CancellationException e) {
            return null; // closed meanwhile: the caller opens it itself
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof IOException io) {
                throw io;
            }
            if (c instanceof RuntimeException r) {
                throw r;
            }
            throw new IOException(c);
        }
    }

    /** Starts the fetches the window and the budget allow, in order. */
    private void topUp() {
        next = Math.max(next, opened + 1);
        while (!closed && next < fetches.length && next <= opened + FILES) {
            long size = sizes[next];
            if (size > BYTES) {
                next++; // streamed when opened
                continue;
            }
            if (buffered + size > BYTES) {
                return; // when an open frees some
            }
            Fetch f = new Fetch(size);
            fetches[next] = f;
            buffered += size;
            String uri = uris.get(next);
            next++;
            try {
                executor.execute(() -> fetch(uri, f));
            } catch (java.util.concurrent.RejectedExecutionException e) {
                f.cancel(); // the storage is closing: its open says so
            }
        }
    }

    private void fetch(String uri, Fetch f) {
        try (InputStream in = opener.open(uri)) {
            if (!f.attach(in)) {
                return;
            }
            f.bytes.complete(in.readAllBytes());
        } catch (IOException | RuntimeException e) {
            f.bytes.completeExceptionally(e);
        }
    }

    @Override
    public void close() {
        List<Fetch> pending = new java.util.ArrayList<>();
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            for (int i = 0; i < fetches.length; i++) {
                if (fetches[i] != null) {
                    pending.add(fetches[i]);
                    fetches[i] = null;
                }
            }
        }
        pending.forEach(Fetch::cancel);
    }
}
