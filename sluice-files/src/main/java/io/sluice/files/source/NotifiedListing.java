package io.sluice.files.source;

import io.sluice.api.SluiceClock;
import io.sluice.files.fs.FileStatus;
import io.sluice.files.fs.FileStorage;
import io.sluice.files.fs.ObjectNotifications;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * useNotifications: the files of a trigger come from the queue's messages (each object looked up, kept when it
 * exists and is the path's), plus a whole listing at start and every backfillInterval of the engine's clock,
 * which finds what lost messages did not say. Messages are hints: the seen-files state decides what is new, so a
 * duplicated, late or redelivered message never makes a file be read twice.
 *
 * <p>A message is deleted once every new file it names is in a committed batch ({@link #committed}), or at once
 * when it names none (objects already in the seen-files log, outside the path, gone, or a message of another kind).
 * Until then it stays in the queue: a query that stops before the commit leaves it there, and the queue delivers it
 * again after its visibility timeout.
 */
final class NotifiedListing implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NotifiedListing.class);
    /** Receives per trigger at most (of up to 10 messages each): a flood waits for the next triggers. */
    static final int MAX_RECEIVES = 100;

    private final ObjectNotifications queue;
    private final FileStorage storage;
    private final SourcePath source;
    private final SeenFilesLog log;
    private final SluiceClock clock;
    private final long backfillMs;
    private final String description;

    private boolean listedOnce;
    private long lastFullMs;
    private long fullListings;
    private long received;
    private long deleted;
    /** Messages naming new files not yet committed, by message id, with the URIs they wait for. */
    private final Map<String, Pending> pending = new LinkedHashMap<>();
    /** The log offset of files of pending messages, once logged. */
    private final Map<String, Long> loggedAt = new HashMap<>();

    private record Pending(ObjectNotifications.Message message, Set<String> waiting) {
    }

    NotifiedListing(ObjectNotifications queue, FileStorage storage, SourcePath source, SeenFilesLog log,
                    SluiceClock clock, long backfillMs, String description) {
        this.queue = queue;
        this.storage = storage;
        this.source = source;
        this.log = log;
        this.clock = clock;
        this.backfillMs = backfillMs;
        this.description = description;
    }

    /** The candidate files of one trigger (not yet filtered against the seen-files state). */
    List<ListedFile> list(Function<ListedFile, PathHash> key, Consumer<FileStatus> special) throws IOException {
        // Received before a full listing, so that the listing covers every object they name.
        List<ObjectNotifications.Message> messages = drain();
        long now = clock.millis();
        boolean full = !listedOnce || now - lastFullMs >= backfillMs;
        Map<String, ListedFile> files = new LinkedHashMap<>();
        if (full) {
            source.list(storage, s -> {
                String uri = storage.uri(s.path());
                files.put(uri, new ListedFile(s.path(), uri, s.size(), s.modificationTime()));
            }, special);
            listedOnce = true;
            lastFullMs = now;
            fullListings++;
        }
        SeenFiles seen = log.seen();
        List<ObjectNotifications.Message> deleteNow = new ArrayList<>();
        Set<String> gone = new HashSet<>();
        for (ObjectNotifications.Message m : messages) {
            Set<String> waiting = new LinkedHashSet<>();
            for (String object : m.objects()) {
                Path p;
                try {
                    p = storage.path("s3://" + object);
                } catch (IllegalArgumentException e) {
                    continue; // no bucket
                }
                if (!source.accepts(p)) {
                    continue; // outside the path, its glob or pathGlobFilter, or a hidden name
                }
                String uri = storage.uri(p);
                ListedFile f = files.get(uri);
                if (f == null && !full && !gone.contains(uri)) {
                    Optional<FileStatus> st = storage.status(p);
                    if (st.isPresent() && !st.get().directory()) {
                        f = new ListedFile(p, uri, st.get().size(), st.get().modificationTime());
                        files.put(uri, f);
                    } else {
                        gone.add(uri); // deleted since, or never there: nothing to read
                    }
                }
                if (f != null && seen.lookup(key.apply(f)) == null) {
                    waiting.add(uri);
                }
            }
            pending.remove(m.id()); // a redelivery replaces the earlier one (and its handle)
            if (waiting.isEmpty()) {
                deleteNow.add(m);
            } else {
                pending.put(m.id(), new Pending(m, waiting));
            }
        }
        delete(deleteNow);
        LOG.debug("{}: {} messages, {} files{}", description, messages.size(), files.size(),
                full ? " (with a full listing)" : "");
        return new ArrayList<>(files.values());
    }

    private List<ObjectNotifications.Message> drain() throws IOException {
        List<ObjectNotifications.Message> all = new ArrayList<>();
        for (int i = 0; i < MAX_RECEIVES; i++) {
            List<ObjectNotifications.Message> batch = queue.receive();
            if (batch.isEmpty()) {
                break;
            }
            all.addAll(batch);
        }
        received += all.size();
        return all;
    }

    /** Files just logged as log offset {@code id}: those pending messages wait for are noted. */
    void logged(long id, List<ListedFile> files) {
        if (pending.isEmpty()) {
            return;
        }
        Set<String> waited = new HashSet<>();
        for (Pending p : pending.values()) {
            waited.addAll(p.waiting());
        }
        for (ListedFile f : files) {
            if (waited.contains(f.uri())) {
                loggedAt.put(f.uri(), id);
            }
        }
    }

    /** Log offsets up to {@code to} committed: messages all of whose files are in them are deleted. */
    void committed(long to) {
        List<ObjectNotifications.Message> done = new ArrayList<>();
        for (Iterator<Pending> it = pending.values().iterator(); it.hasNext(); ) {
            Pending p = it.next();
            p.waiting().removeIf(u -> {
                Long at = loggedAt.get(u);
                return at != null && at <= to;
            });
            if (p.waiting().isEmpty()) {
                done.add(p.message());
                it.remove();
            }
        }
        loggedAt.values().removeIf(at -> at <= to);
        try {
            delete(done);
        } catch (IOException e) {
            // Not lost: the queue delivers them again, and the seen-files state knows their files.
            LOG.warn("{}: cannot delete {} messages after their batch committed ({}); they will come again and "
                    + "be deleted then", description, done.size(), e.getMessage());
        }
    }

    private void delete(List<ObjectNotifications.Message> messages) throws IOException {
        if (!messages.isEmpty()) {
            queue.delete(messages);
            deleted += messages.size();
        }
    }

    /** Metrics of this run: full listings, messages received and deleted. */
    void metrics(Map<String, String> m) {
        m.put("numFullListings", Long.toString(fullListings));
        m.put("numMessagesReceived", Long.toString(received));
        m.put("numMessagesDeleted", Long.toString(deleted));
        m.put("numMessagesPending", Long.toString(pending.size()));
    }

    @Override
    public void close() {
        queue.close();
    }
}
